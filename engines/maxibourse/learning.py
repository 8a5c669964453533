"""What Maxi Bourse learns at the table (RM13's amendment, read for this game;
engines/core/learning.py): a company's nominal price the box file leaves out.

Every price starts at its company's nominal (MB1), so the box cannot deal a card before it
knows them all: a file whose companies leave `nominal` out is asked for each of them, in
the file's order, before anything else (`learn_nominal`: the company is the one asked, the
nominal one of 100, 200 or 300 $ as the quotation table prints it). Journaled, undone and
replayed like any action; a nominal found wrong later is corrected with `set_nominal`, which
is learned too: the box file written back (`corbeille box learned`) holds the corrected one."""
import dataclasses

from engines.core.decision import Choice, Decision, Fixed, Option
from engines.core.errors import IllegalAction
from engines.core.learning import remember
from engines.maxibourse.box import NOMINALS


def with_learned(box, learned: tuple):
    """`box` with every learned nominal folded in, in the order learned (the last wins)."""
    nominals = {entry[1]: entry[2] for entry in learned if entry[0] == "nominal"}
    if not nominals:
        return box
    companies = {c: dataclasses.replace(co, nominal=nominals.get(c, co.nominal)) for c, co in box.companies.items()}
    return dataclasses.replace(box, companies=companies)


class Learning:
    """The game's part of the mechanic (mixed into the game class)."""

    def learned_entries(self) -> tuple:
        return self.s.learned

    def learned_box(self):
        """The box file with what the table learned folded in (`corbeille box learned`)."""
        return with_learned(self.box, self.s.learned)

    def unknown_nominals(self) -> list:
        """The companies whose nominal neither the file nor the table gave yet (asked at
        every decision: the file's gaps are found once per game, not per decision)."""
        missing = self.__dict__.get("_missing_nominals")
        if missing is None:
            missing = self._missing_nominals = tuple(c for c, co in self.box.companies.items() if not co.nominal)
        return [c for c in missing if c not in self.s.nominals]

    def learn_decision(self) -> Decision | None:
        unknown = self.unknown_nominals()
        if not unknown:
            return None
        company = unknown[0]
        return Decision("prompt.mb.learn_nominal", {"company": company, "left": len(unknown)}, None,
                        (Option("learn_nominal", {"company": Fixed(company), "nominal": Choice(NOMINALS)}),))

    def vet(self, act):
        return self.learn_refusal(act) if act.kind == "learn_nominal" else super().vet(act)

    def learn_refusal(self, act):
        if act.company not in self.box.companies:
            return IllegalAction("error.mb.unknown_company", company=act.company)
        if self.box.companies[act.company].nominal or act.company in self.s.nominals:
            return IllegalAction("error.mb.nominal_known", company=act.company, nominal=self.nominal(act.company))
        if act.nominal not in NOMINALS:
            return IllegalAction("error.mb.learn_nominal", nominal=act.nominal,
                                 allowed=", ".join(map(str, NOMINALS)))
        return None

    def on_learn_nominal(self, act):
        refused = self.learn_refusal(act)
        if refused:
            raise refused
        remember(self, ("nominal", act.company, act.nominal))
        self.s.nominals[act.company] = act.nominal
        self.s.prices[act.company] = act.nominal       # the price starts at the nominal (MB1)
        self.emit("mb.learned_nominal", company=act.company, nominal=act.nominal)
