// Drag and drop with pointer events (mouse, pen and touch alike). A press that does not move is left
// to the element's click handler, so every drag has a click-click twin for keyboards and touch.

const THRESHOLD = 6;

/**
 * Let `el` be dragged onto elements marked with [data-drop]. `onDrop(target)` gets the drop element;
 * `accepts(target)` (optional) decides which targets light up and take the drop.
 */
export function draggable(el, { onDrop, accepts = () => true, onStart = () => {} }) {
  el.classList.add("draggable");
  el.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    const startX = down.clientX;
    const startY = down.clientY;
    let floating = null;
    let lit = null;

    const targetAt = (x, y) => {
      if (floating) floating.style.display = "none";
      const under = document.elementFromPoint(x, y);
      if (floating) floating.style.display = "";
      const target = under && under.closest("[data-drop]");
      return target && target !== el && accepts(target) ? target : null;
    };
    const move = (event) => {
      if (!floating) {
        if (Math.hypot(event.clientX - startX, event.clientY - startY) < THRESHOLD) return;
        const box = el.getBoundingClientRect();
        floating = el.cloneNode(true);
        floating.classList.add("drag-float");
        floating.style.width = `${box.width}px`;
        floating.style.height = `${box.height}px`;
        document.body.append(floating);
        el.classList.add("drag-source");
        onStart();
      }
      floating.style.left = `${event.clientX}px`;
      floating.style.top = `${event.clientY}px`;
      const target = targetAt(event.clientX, event.clientY);
      if (target !== lit) {
        lit?.classList.remove("drop-hover");
        target?.classList.add("drop-hover");
        lit = target;
      }
      event.preventDefault();
    };
    const up = (event) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      lit?.classList.remove("drop-hover");
      if (!floating) return;
      const target = targetAt(event.clientX, event.clientY);
      floating.remove();
      el.classList.remove("drag-source");
      // The click that follows a drag must not also select the piece.
      const swallow = (click) => click.stopPropagation();
      window.addEventListener("click", swallow, { capture: true, once: true });
      setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
      if (target) onDrop(target);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  });
}
