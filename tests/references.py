"""Reference images: a drawn frame is compared pixel for pixel with the reviewed PNG under
tests/reference/<folder>/. With CORBEILLE_UPDATE_REFERENCES=1 the references are written
instead (look at them before committing). A mismatch saves the drawn frame under the
temporary directory and says how many pixels differ and where."""
import os
import tempfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops

REFERENCE_ROOT = Path(__file__).parent / "reference"
UPDATE = os.environ.get("CORBEILLE_UPDATE_REFERENCES") == "1"


def assert_matches_reference(image: Image.Image, name: str, folder: str) -> None:
    references = REFERENCE_ROOT / folder
    path = references / f"{name}.png"
    if UPDATE:
        references.mkdir(parents=True, exist_ok=True)
        image.save(path)
        return
    assert path.exists(), f"no reference {path.name}: run with CORBEILLE_UPDATE_REFERENCES=1 and review it"
    with Image.open(path) as stored:
        stored.load()
    if stored.mode == image.mode and stored.size == image.size and stored.tobytes() == image.tobytes():
        return
    failed = Path(tempfile.gettempdir()) / f"corbeille-{folder}" / f"{name}.png"
    failed.parent.mkdir(parents=True, exist_ok=True)
    image.save(failed)
    detail = f"{stored.mode} {stored.size} stored, {image.mode} {image.size} drawn"
    if stored.mode == image.mode and stored.size == image.size:
        diff = ImageChops.difference(stored.convert("L"), image.convert("L"))
        detail = f"{sum(1 for v in diff.tobytes() if v)} pixels differ in {diff.getbbox()}"
    pytest.fail(f"{name}: {detail}; drawn frame saved as {failed}")
