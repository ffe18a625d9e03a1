"""What a screen must never do at any width or text size (WCAG 1.4.4 and 1.4.10), as a check
the browser tests run on every screen: text cut short, text or a box off the screen's edge,
two texts drawn over each other, the page scrolling sideways, a word split between two lines
(names too; a word too long for any line may end in "…" with the whole of it in its title),
a sheet that scrolls as a whole, a dialog opened with its heading out of sight.

The text size is the browser's own (Chromium's default font size, the setting behind a
phone's "text size"), set through the DevTools protocol, so the page is measured the way a
player who enlarged the text sees it; the page sizes its text in rem to follow it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# The check itself, in the page's language (tests/reflow.js).
REFLOW_PROBLEMS = (Path(__file__).parent / "reflow.js").read_text(encoding="utf-8")


def set_text_size(page: Any, scale: float) -> Any:
    """The browser's text size at `scale` × the default (16 px), as a phone's setting sets it.

    The setting lasts as long as the returned DevTools session: keep it.
    """
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": round(16 * scale),
                                                 "fixed": round(13 * scale)}})
    size = page.evaluate("getComputedStyle(document.documentElement).fontSize")
    assert size == f"{round(16 * scale)}px", f"the text size did not take: {size}"
    return cdp


def reflow_problems(page: Any) -> list[str]:
    return list(page.evaluate(REFLOW_PROBLEMS, page.viewport_size["width"]))
