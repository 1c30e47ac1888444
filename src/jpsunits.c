/*
** jpsunits.c -- the bit sets of a unit size, for jump point search of
** units of size k (jps.c: expand_unit).
**
** A unit of size k moves by the one-cell rules on the derived grid whose
** open cells are those with clearance >= k (lattice.h), so its straight
** runs are scanned 64 cells at a time, as a unit of size 1's are, in bit
** sets of that grid: bit x of row y and bit y of column x (padded
** coordinates, rw and cw words a line: the grid's own lines without their
** stop bits) set where the unit fits.  The border has clearance 0, so
** every scan stops inside.
**
** The sets of size k are built by the first sized jump point query of that
** size (or astar_topology_prepare with it): one pass over the clearance
** layer, 2 bits a cell; a game that loads a level can pay it then.  After
** that set_blocked keeps them current: the clearance update reports each
** cell whose value changed from `was` to `now`, and only the sizes between
** the two change their bit (astar__ubits_set).
*/
#include <string.h>

#include "lattice.h"

static size_t ubits_words(const astar_grid *gr) {
  return (size_t)gr->ph * (size_t)gr->rw + (size_t)gr->pw * (size_t)gr->cw;
}

/* Builds the sets of size k (2..ASTAR_MAX_UNIT) from the clearance layer,
** which must be built.  ENOMEM. */
int astar__ubits_build(astar_grid *gr, int32_t k) {
  size_t words = ubits_words(gr);
  uint64_t *rows, *cols;
  int32_t x, y;
  if (gr->rows == NULL || gr->clear == NULL || k < 2 || k > ASTAR_MAX_UNIT) return ASTAR_EINVAL;
  if (gr->ubits == NULL) {
    size_t n = (ASTAR_MAX_UNIT + 1) * sizeof *gr->ubits;
    gr->ubits = (uint64_t **)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n);
    if (gr->ubits == NULL) return ASTAR_ENOMEM;
    memset(gr->ubits, 0, n);
  }
  if (gr->ubits[k] != NULL) return ASTAR_OK;
  rows = (uint64_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, words * sizeof(uint64_t));
  if (rows == NULL) return ASTAR_ENOMEM;
  memset(rows, 0, words * sizeof(uint64_t));
  cols = rows + (size_t)gr->ph * (size_t)gr->rw;
  for (y = 1; y <= gr->h; y++) {
    const unsigned char *c = gr->clear + (size_t)y * (size_t)gr->pw;
    uint64_t *r = rows + (size_t)y * (size_t)gr->rw, cb = (uint64_t)1 << (y & 63);
    uint64_t *col = cols + (size_t)(y >> 6);
    for (x = 1; x <= gr->w; x++)
      if (c[x] >= k) {
        r[x >> 6] |= (uint64_t)1 << (x & 63);
        col[(size_t)x * (size_t)gr->cw] |= cb;
      }
  }
  gr->ubits[k] = rows;
  return ASTAR_OK;
}

/* What a sized jump point query of size k needs: the clearance layer,
** then the sets of size k (astar__grid_jps.prepare_sized). */
int astar__ubits_prepare(astar_topology *t, int32_t k) {
  astar_grid *gr = (astar_grid *)t;
  int rc = gr->shape->clear_build(gr);
  return rc == ASTAR_OK ? astar__ubits_build(gr, k) : rc;
}

/* Padded cell p's clearance changed from `was` to `now`: the sizes between
** gain or lose it. */
void astar__ubits_set(astar_grid *gr, int32_t p, unsigned was, unsigned now) {
  int32_t y = p / gr->pw, x = p - y * gr->pw;
  unsigned lo = was < now ? was : now, hi = was < now ? now : was, k;
  uint64_t rb = (uint64_t)1 << (x & 63), cb = (uint64_t)1 << (y & 63);
  for (k = lo + 1 < 2 ? 2 : lo + 1; k <= hi; k++) {
    uint64_t *rows = gr->ubits[k], *r, *c;
    if (rows == NULL) continue;
    r = rows + (size_t)y * (size_t)gr->rw + (size_t)(x >> 6);
    c = rows + (size_t)gr->ph * (size_t)gr->rw + (size_t)x * (size_t)gr->cw + (size_t)(y >> 6);
    if (now > was) {
      *r |= rb;
      *c |= cb;
    } else {
      *r &= ~rb;
      *c &= ~cb;
    }
  }
}

/* What the sets hold (grid:memory()). */
size_t astar__ubits_bytes(const astar_grid *gr) {
  size_t n = 0;
  int k;
  if (gr->ubits == NULL) return 0;
  n = (ASTAR_MAX_UNIT + 1) * sizeof *gr->ubits;
  for (k = 2; k <= ASTAR_MAX_UNIT; k++)
    if (gr->ubits[k]) n += ubits_words(gr) * sizeof(uint64_t);
  return n;
}

void astar__ubits_free(astar_grid *gr) {
  int k;
  if (gr->ubits == NULL) return;
  for (k = 2; k <= ASTAR_MAX_UNIT; k++)
    astar__mem(gr->t.alloc, gr->t.ud, gr->ubits[k], gr->ubits[k] ? ubits_words(gr) * sizeof(uint64_t) : 0,
               0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->ubits, (ASTAR_MAX_UNIT + 1) * sizeof *gr->ubits, 0);
  gr->ubits = NULL;
}
