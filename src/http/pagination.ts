/**
 * Page arithmetic for `{data, pagination}` responses: `page` is 1-based, `lastPage` is at least
 * 1, `from`/`to` are 1-based row numbers (null on an empty page), `prevPage`/`nextPage` are null
 * at the ends; a page beyond the last is answered with empty data.
 */
export interface PageInfo {
  perPage: number;
  currentPage: number;
  from: number | null;
  to: number | null;
  total: number;
  lastPage: number;
  prevPage: number | null;
  nextPage: number | null;
}

export interface Page<T> {
  rows: T[];
  pagination: PageInfo;
}

export function paginate<T>(all: readonly T[], page: number, perPage: number): Page<T> {
  const total = all.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const offset = (page - 1) * perPage;
  const rows = offset < total ? all.slice(offset, offset + perPage) : [];
  return {
    rows,
    pagination: {
      perPage,
      currentPage: page,
      from: rows.length > 0 ? offset + 1 : null,
      to: rows.length > 0 ? offset + rows.length : null,
      total,
      lastPage,
      prevPage: page > 1 ? Math.min(page - 1, lastPage) : null,
      nextPage: page < lastPage ? page + 1 : null,
    },
  };
}
