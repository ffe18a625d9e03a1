// Swipe to remove: a label or chip dragged left goes.

const SWIPE_PX = 56; // a label or chip dragged this far left is removed

/** Drag `el` left past SWIPE_PX to remove it; a drag never counts as a tap. */
export function swipeable(el, onRemove) {
  let start = null;
  let dx = 0;
  let dragging = false;
  el.addEventListener('pointerdown', (ev) => {
    if (ev.button > 0) return;
    start = { x: ev.clientX, y: ev.clientY, id: ev.pointerId };
    dx = 0;
    dragging = false;
  });
  el.addEventListener('pointermove', (ev) => {
    if (!start || ev.pointerId !== start.id) return;
    dx = ev.clientX - start.x;
    const dy = ev.clientY - start.y;
    if (!dragging && Math.abs(dx) > 8 && Math.abs(dx) > Math.abs(dy)) {
      dragging = true;
      el.classList.add('swiping');
      try {
        el.setPointerCapture(ev.pointerId);
      } catch {
        /* synthetic pointers */
      }
    }
    if (dragging) {
      const x = Math.min(0, dx);
      el.style.transform = `translateX(${x}px)`;
      el.style.opacity = String(Math.max(0.3, 1 + x / (SWIPE_PX * 2.5)));
    }
  });
  const end = (ev) => {
    if (!start || ev.pointerId !== start.id) return;
    start = null;
    el.classList.remove('swiping');
    if (!dragging) return;
    el.dataset.swiped = '1'; // swallow the click that follows the drag
    setTimeout(() => delete el.dataset.swiped, 0);
    if (dx <= -SWIPE_PX) {
      onRemove();
      return;
    }
    el.style.transform = '';
    el.style.opacity = '';
  };
  el.addEventListener('pointerup', end);
  el.addEventListener('pointercancel', end);
  el.addEventListener('click', (ev) => {
    if (el.dataset.swiped) {
      ev.stopPropagation();
      ev.preventDefault();
    }
  }, true);
}
