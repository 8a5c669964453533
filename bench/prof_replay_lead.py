import time, cProfile, pstats, sys, tempfile
from pathlib import Path
sys.path.insert(0, ".")
from bench.press_bench import long_journal, replay_from_journal
from firmware.journal import Journal
from engines import game_class
d = Path(tempfile.mkdtemp())
long_journal(d)
p = d/"journal.sqlite"
print("replay", replay_from_journal(p, runs=5))
def parts():
    t0=time.perf_counter()
    j=Journal(p); t1=time.perf_counter()
    g=j.last_game(); h=j.header(g); cls=game_class(h.get("game","maxibourse"))
    raw=list(j.actions(g)); t2=time.perf_counter()
    acts=[cls.ACTIONS.from_json(a) for a in raw]; t3=time.perf_counter()
    cls.replay(h, acts, checked=False); t4=time.perf_counter()
    j.close()
    return t1-t0,t2-t1,t3-t2,t4-t3
for _ in range(3): print(["%.1f"%(x*1e3) for x in parts()])
j=Journal(p); g=j.last_game(); h=j.header(g); cls=game_class(h.get("game","maxibourse"))
acts=[cls.ACTIONS.from_json(a) for a in j.actions(g)]
cProfile.run("cls.replay(h, acts, checked=False)", "/tmp/rp.prof")
pstats.Stats("/tmp/rp.prof").sort_stats("tottime").print_stats(25)
