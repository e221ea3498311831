import type { Page } from 'playwright-core';

/**
 * What sticks out sideways on the page as it is now: the page scrolling horizontally, a dialog
 * wider than the screen or wider than itself (its own horizontal overflow), or an element whose
 * right edge passes the screen's or its dialog's. Elements inside a deliberate horizontal
 * scroller (overflow-x auto/scroll, e.g. a wide table) count only through that scroller's own box.
 * Returns readable lines, empty when everything fits.
 */
export function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const doc = document.scrollingElement ?? document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) problems.push(`page scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
    const describe = (el: Element) => {
      const id = el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40);
      return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').slice(0, 3).join('.')}` : ''} "${id}"`;
    };
    const inScroller = (el: Element, stop: Element | null) => {
      for (let p = el.parentElement; p && p !== stop; p = p.parentElement) {
        const x = getComputedStyle(p).overflowX;
        if (x === 'auto' || x === 'scroll' || x === 'hidden') return true;
      }
      return false;
    };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const limit = window.innerWidth;
    const dialogs = Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"]'));
    for (const d of dialogs) {
      const box = d.getBoundingClientRect();
      if (box.left < -0.5 || box.right > limit + 0.5) problems.push(`dialog ${describe(d)} spans ${Math.round(box.left)}–${Math.round(box.right)} of ${limit}`);
      if (d.scrollWidth > d.clientWidth + 1) problems.push(`dialog ${describe(d)} overflows itself: ${d.scrollWidth} > ${d.clientWidth}`);
      // A part of the dialog that scrolls (or clips) sideways hides content, unless it is a
      // deliberate horizontal scroller (data-scroll-x: a wide table the operator pans).
      for (const el of Array.from(d.querySelectorAll('*'))) {
        if (!visible(el) || el.closest('[data-scroll-x]')) continue;
        const style = getComputedStyle(el);
        // A truncated line ends in an ellipsis: it says there is more (and the full text is at hand).
        if (style.textOverflow === 'ellipsis') continue;
        if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) problems.push(`${describe(el)} hides content sideways: ${el.scrollWidth} > ${el.clientWidth}`);
      }
      for (const el of Array.from(d.querySelectorAll('*'))) {
        if (!visible(el) || inScroller(el, d)) continue;
        const r = el.getBoundingClientRect();
        if (r.right > box.right + 1) problems.push(`${describe(el)} passes its dialog: ${Math.round(r.right)} > ${Math.round(box.right)}`);
      }
    }
    const scope = dialogs.length > 0 ? [] : Array.from(document.body.querySelectorAll('*'));
    for (const el of scope) {
      if (!visible(el) || inScroller(el, null)) continue;
      const r = el.getBoundingClientRect();
      if (r.right > limit + 1) problems.push(`${describe(el)} passes the screen: ${Math.round(r.right)} > ${limit}`);
    }
    return problems.slice(0, 12);
  });
}
