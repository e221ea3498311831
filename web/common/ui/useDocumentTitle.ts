import { useEffect } from 'react';

/** Every page title carries the product's name (DESIGN: Marquee). */
export function useDocumentTitle(page?: string): void {
  useEffect(() => {
    document.title = page ? `${page} · Marquee` : 'Marquee';
  }, [page]);
}
