/*
** stopbits.c -- the stop bits of the grid's lines, for jump point search
** (jps.c: the straight scans).
**
** A straight scan along a line (a row, or a column) from a cell toward
** higher positions stops at the first cell j that is blocked (a dead end)
** or has a forced neighbour: a cell beside j (on either neighbour line)
** open while the one before it on that line (at j - 1) is blocked.  Toward
** lower positions the one before is at j + 1.  These cells depend on the
** blocked cells only, not on the scan, so they are kept as two more bit
** sets of the rows' and columns' layout: "up" (bit j: a scan toward higher
** positions stops at j) and "down".  A scan then reads one window of them
** and the open bits at the same place (a dead end or a jump point).
**
** They live among the line's own words (lattice.h: LAT_UP_W, LAT_OPEN_W,
** LAT_DOWN_W): word k of the up bits, of the open bits and of the down
** bits lie side by side, so a scan reads a stop word and the open word of
** the same 64 cells from one place (one cache line, mostly), as the
** three-window scans read three neighbouring rows.  Bits of blocked cells,
** of the border and past the end of a line are set; the border lines are
** all set.
** Built with the grid; an edit of a cell changes the stop bits of the cells
** of its 3 x 3 neighbourhood only (its lines and the two beside each, at
** the cell and the two beside it), so set_blocked recomputes the words that
** hold those bits: O(1).
*/
#include "lattice.h"

/* Word k of the stop bits of line m (words long, a and b the lines beside
** it): toward higher positions (up), or lower ones. */
static uint64_t stop_word(const uint64_t *m, const uint64_t *a, const uint64_t *b, size_t words,
                          size_t k, int up) {
  uint64_t aw = a[LAT_OPEN_W(k)], bw = b[LAT_OPEN_W(k)], mw = m[LAT_OPEN_W(k)];
  if (up) {
    uint64_t pa = k > 0 ? a[LAT_OPEN_W(k - 1)] >> 63 : 0, pb = k > 0 ? b[LAT_OPEN_W(k - 1)] >> 63 : 0;
    return ~mw | (aw & ~((aw << 1) | pa)) | (bw & ~((bw << 1) | pb));
  } else {
    uint64_t na = k + 1 < words ? a[LAT_OPEN_W(k + 1)] << 63 : 0;
    uint64_t nb = k + 1 < words ? b[LAT_OPEN_W(k + 1)] << 63 : 0;
    return ~mw | (aw & ~((aw >> 1) | na)) | (bw & ~((bw >> 1) | nb));
  }
}

/* Words k0..k1 of line l of the set whose lines start at base (n lines of
** `words` words, `stride` apart): both directions; the border lines (l 0
** and n - 1) are all set. */
static void stop_line(uint64_t *base, int32_t n, size_t words, size_t stride, int32_t l, size_t k0,
                      size_t k1) {
  uint64_t *m = base + (size_t)l * stride;
  size_t k;
  for (k = k0; k <= k1; k++) {
    if (l == 0 || l == n - 1) {
      m[LAT_UP_W(k)] = m[LAT_DOWN_W(k)] = ~(uint64_t)0;
    } else {
      m[LAT_UP_W(k)] = stop_word(m, m - stride, m + stride, words, k, 1);
      m[LAT_DOWN_W(k)] = stop_word(m, m - stride, m + stride, words, k, 0);
    }
  }
}

/* Every line's stop bits from the open bits (a new grid, a whole map). */
void astar__stop_build(astar_grid *gr) {
  const size_t rw = (size_t)gr->rw, cw = (size_t)gr->cw;
  int32_t l;
  if (gr->rows == NULL) return;
  for (l = 0; l < gr->ph; l++) stop_line(gr->rows, gr->ph, rw, (size_t)gr->rs, l, 0, rw - 1);
  for (l = 0; l < gr->pw; l++) stop_line(gr->cols, gr->pw, cw, (size_t)gr->cs, l, 0, cw - 1);
}

void astar__stop_cell(astar_grid *gr, int32_t x, int32_t y) {
  const size_t rw = (size_t)gr->rw, cw = (size_t)gr->cw;
  int32_t l;
  for (l = y - 1; l <= y + 1; l++) /* x - 1 >= 0 and x + 1 < pw: x is inside */
    stop_line(gr->rows, gr->ph, rw, (size_t)gr->rs, l, (size_t)(x - 1) >> 6, (size_t)(x + 1) >> 6);
  for (l = x - 1; l <= x + 1; l++)
    stop_line(gr->cols, gr->pw, cw, (size_t)gr->cs, l, (size_t)(y - 1) >> 6, (size_t)(y + 1) >> 6);
}
