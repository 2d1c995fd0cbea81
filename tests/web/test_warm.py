"""The workers' warm-up still loads the compiled kernels, now that a fresh process solves small boards without them."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
from tilegames.web import tasks
tasks.warm()
from tilegames.klotski import kernels
from tilegames.slide.solve import kernels as slide_kernels
print(len(kernels.search.signatures), len(slide_kernels.ida_mdlc.signatures))
"""


def test_warm_loads_the_klotski_and_slide_kernels() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHECK], check=True, capture_output=True, text=True
    ).stdout
    assert out.split() == ["1", "1"]
