"""The lab: what makes and measures the card model, apart from what a table runs.

Training (`training/`), rendering scenes (`training/synth/`), evaluation and the fan
benchmark (`evaluation/`) and the analyses kept as tools (`analyses/`) depend on the runtime
package `scorekeeper`; the runtime never imports them, and a Pi install does not carry them.
"""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # the repository this lab was installed from
