/*
** grid.c -- implicit grid topology: cell storage (blocked bits, optional cost
** and tag layers), the move rules, line of sight, and the grid's topology
** operations.  Neighbours are generated from padded offsets; there are no
** edge arrays.
**
** Cells are stored with a one-cell blocked border (padded width pw = w + 2),
** so the search loop never checks bounds.  External cell ids are y * w + x;
** internal ids are padded indices (y + 1) * pw + (x + 1).  Directions 0..3
** are cardinal (E, W, S, N), 4..7 diagonal (SE, NE, SW, NW).
*/
#include <math.h>
#include <string.h>

#include "grid_int.h"

/* (defined here, not in grid_int.h: the single-file build #undefs a .c
** file's macros at its end, and the binding has a GRID of its own) */
#define GRID(t) ((astar_grid *)(t))
#define CGRID(t) ((const astar_grid *)(t))
#define CELL(gr, x, y) (((y) + 1) * (gr)->pw + (x) + 1)
#define INSIDE(gr, x, y) ((x) >= 0 && (y) >= 0 && (x) < (gr)->w && (y) < (gr)->h)

static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const unsigned char opposite[8] = {1, 0, 3, 2, 7, 6, 5, 4};

static const astar_topo_ops grid_ops;

/* ------------------------------------------------------------------------ */
/* the move rules                                                             */
/* ------------------------------------------------------------------------ */

/*
** The diagonal rule, in one place.  `open` has bit d set when the neighbour
** in direction d may be entered; the result has bit d set when the step in
** direction d is allowed.  A cardinal step needs its target open; a
** diagonal one needs its target open and, by the rule, both side cells
** (no_corner_cutting), at least one (one_obstacle) or neither (always);
** never allows none.  The rule is symmetric (the same two side cells decide
** a diagonal step either way), so reverse expansions use it too.
*/
static unsigned rule_moves(int diagonal, unsigned open) {
  static const unsigned char side_a[8] = {0, 0, 0, 0, 0, 0, 1, 1};
  static const unsigned char side_b[8] = {0, 0, 0, 0, 2, 3, 2, 3};
  unsigned m = open & 0x0fu;
  int d;
  if (diagonal == ASTAR_DIAG_NEVER) return m;
  for (d = 4; d < 8; d++) {
    unsigned a = open >> side_a[d] & 1u, b = open >> side_b[d] & 1u;
    if (!(open >> d & 1u)) continue;
    if (diagonal == ASTAR_DIAG_NO_CORNER_CUTTING ? (a & b)
        : diagonal == ASTAR_DIAG_ONE_OBSTACLE    ? (a | b)
                                                 : 1u)
      m |= 1u << d;
  }
  return m;
}

/* The same rule for anyangle.c, which walks the grid through astar.h. */
unsigned astar__grid_rule_moves(int diagonal, unsigned open) {
  return rule_moves(diagonal, open);
}

/* Recomputes the move mask of padded cell p from its neighbours. */
static void update_moves(astar_grid *gr, int32_t p) {
  unsigned open = 0;
  int d;
  if (gr->blocked[p]) {
    gr->moves[p] = 0;
    return;
  }
  for (d = 0; d < 8; d++)
    if (!gr->blocked[p + gr->off[d]]) open |= 1u << d;
  gr->moves[p] = (unsigned char)rule_moves(gr->diagonal, open);
}

/* Sets padded cell (x, y)'s bit in the row and column bit sets. */
static void set_open_bit(astar_grid *gr, int32_t x, int32_t y, int open) {
  uint64_t *r = &gr->rows[(size_t)y * (size_t)gr->rw + (size_t)(x >> 6)];
  uint64_t *c = &gr->cols[(size_t)x * (size_t)gr->cw + (size_t)(y >> 6)];
  uint64_t rb = (uint64_t)1 << (x & 63), cb = (uint64_t)1 << (y & 63);
  if (open) {
    *r |= rb;
    *c |= cb;
  } else {
    *r &= ~rb;
    *c &= ~cb;
  }
}

static size_t bits_words(const astar_grid *gr) {
  return (size_t)gr->ph * (size_t)gr->rw + (size_t)gr->pw * (size_t)gr->cw;
}

/* A blocked change at p affects the masks of p and its 8 neighbours. */
static void update_around(astar_grid *gr, int32_t p) {
  int32_t ddy, ddx;
  for (ddy = -1; ddy <= 1; ddy++)
    for (ddx = -1; ddx <= 1; ddx++) {
      int32_t q = p + ddy * gr->pw + ddx;
      int32_t qy = q / gr->pw, qx = q % gr->pw;
      if (qy >= 1 && qy <= gr->h && qx >= 1 && qx <= gr->w) update_moves(gr, q);
    }
}

/* ------------------------------------------------------------------------ */
/* clearance                                                                  */
/* ------------------------------------------------------------------------ */

/* The clearance of padded cell p from the three cells right and below it:
** a k x k open block at p is p itself open and (k - 1)-blocks open at its
** right, lower and lower-right neighbours.  Capped at ASTAR_MAX_UNIT, which
** keeps it exact for every value below the cap (min(cap, 1 + min(...))
** over capped neighbours is the capped true value). */
ASTAR_INLINE unsigned char clear_at(const astar_grid *gr, int32_t p) {
  const unsigned char *c = gr->clear;
  unsigned m;
  if (gr->blocked[p]) return 0;
  m = c[p + 1];
  if (c[p + gr->pw] < m) m = c[p + gr->pw];
  if (c[p + gr->pw + 1] < m) m = c[p + gr->pw + 1];
  return (unsigned char)(m >= ASTAR_MAX_UNIT ? ASTAR_MAX_UNIT : m + 1);
}

/* Builds the clearance layer on first need: one pass from the bottom-right
** corner (the blocked border reads as 0).  ENOMEM. */
static int clear_build(astar_grid *gr) {
  size_t n = (size_t)gr->pw * (size_t)gr->ph;
  int32_t x, y;
  if (gr->clear != NULL) return ASTAR_OK;
  gr->clear = (unsigned char *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n);
  if (gr->clear == NULL) return ASTAR_ENOMEM;
  memset(gr->clear, 0, n);
  for (y = gr->h - 1; y >= 0; y--)
    for (x = gr->w - 1; x >= 0; x--) gr->clear[CELL(gr, x, y)] = clear_at(gr, CELL(gr, x, y));
  return ASTAR_OK;
}

/*
** After the blocked bit of (x, y) changed: a cell's clearance depends only
** on cells right of and below it, so only cells up and left of (x, y) can
** change.  Rows are revisited upwards from y; in each, every column that a
** change in the row below can reach (one left of its leftmost change, to x)
** is recomputed, and the walk goes on left while values keep changing.  A
** row with no change ends it; the cap ends it within ASTAR_MAX_UNIT rows and
** columns (a cell that far from (x, y) is capped either way).
*/
static void clear_update(astar_grid *gr, int32_t x, int32_t y) {
  int32_t lo = x + 1, row, i; /* lo: the leftmost column that changed below */
  for (row = y; row >= 0; row--) {
    int32_t from = row == y ? x : (lo > 0 ? lo - 1 : 0), newlo = x + 1;
    int changed = 0;
    for (i = x; i >= 0; i--) {
      int32_t p = CELL(gr, i, row);
      unsigned char v = clear_at(gr, p);
      if (v != gr->clear[p]) {
        gr->clear[p] = v;
        changed = 1;
        newlo = i;
      } else if (i <= from) {
        break; /* left of the reach of the row below */
      }
    }
    if (!changed) break;
    lo = newlo;
  }
}

int astar_grid_clearance(astar_grid *gr, int32_t x, int32_t y) {
  int rc;
  if (!INSIDE(gr, x, y)) return ASTAR_EINVAL;
  if ((rc = clear_build(gr)) != ASTAR_OK) return rc;
  return gr->clear[CELL(gr, x, y)];
}

/* ------------------------------------------------------------------------ */
/* storage                                                                    */
/* ------------------------------------------------------------------------ */

astar_grid *astar_grid_new(int32_t width, int32_t height, int diagonal,
                           astar_alloc_fn alloc, void *ud) {
  astar_grid *gr;
  size_t n;
  int32_t y, d;
  if (width < 1 || height < 1 || width > ASTAR_GRID_MAX_SIDE ||
      height > ASTAR_GRID_MAX_SIDE || (int64_t)width * height >= (1 << 30))
    return NULL;
  if (diagonal < ASTAR_DIAG_NEVER || diagonal > ASTAR_DIAG_ALWAYS) return NULL;
  gr = (astar_grid *)astar__mem(alloc, ud, NULL, 0, sizeof *gr);
  if (gr == NULL) return NULL;
  memset(gr, 0, sizeof *gr);
  gr->t.ops = &grid_ops;
  gr->t.alloc = alloc;
  gr->t.ud = ud;
  gr->w = width;
  gr->h = height;
  gr->pw = width + 2;
  gr->ph = height + 2;
  gr->inv_pw = 1.0 / gr->pw;
  gr->diagonal = diagonal;
  n = (size_t)gr->pw * (size_t)gr->ph;
  gr->blocked = (unsigned char *)astar__mem(alloc, ud, NULL, 0, n);
  gr->moves = (unsigned char *)astar__mem(alloc, ud, NULL, 0, n);
  gr->rw = (gr->pw + 63) / 64;
  gr->cw = (gr->ph + 63) / 64;
  gr->rows = (uint64_t *)astar__mem(alloc, ud, NULL, 0, bits_words(gr) * sizeof(uint64_t));
  if (gr->blocked == NULL || gr->moves == NULL || gr->rows == NULL) {
    astar__mem(alloc, ud, gr->blocked, gr->blocked ? n : 0, 0);
    astar__mem(alloc, ud, gr->moves, gr->moves ? n : 0, 0);
    astar__mem(alloc, ud, gr->rows, gr->rows ? bits_words(gr) * sizeof(uint64_t) : 0, 0);
    astar__mem(alloc, ud, gr, sizeof *gr, 0);
    return NULL;
  }
  /* one block: the rows' words, then the columns' */
  gr->cols = gr->rows + (size_t)gr->ph * (size_t)gr->rw;
  memset(gr->rows, 0, bits_words(gr) * sizeof(uint64_t));
  /* the border is blocked, the inside open */
  memset(gr->blocked, 1, n);
  for (y = 0; y < height; y++)
    memset(gr->blocked + CELL(gr, 0, y), 0, (size_t)width);
  for (d = 0; d < 8; d++) gr->off[d] = dy[d] * gr->pw + dx[d];
  memset(gr->moves, 0, n);
  for (y = 0; y < height; y++) {
    int32_t x;
    for (x = 0; x < width; x++) {
      update_moves(gr, CELL(gr, x, y));
      set_open_bit(gr, x + 1, y + 1, 1);
    }
  }
  /* all open: one component under every diagonal rule (cardinal steps
  ** join every cell) */
  astar__comp_uniform(&gr->t);
  return gr;
}

void astar_grid_free(astar_grid *gr) {
  size_t n;
  if (gr == NULL) return;
  n = (size_t)gr->pw * (size_t)gr->ph;
  astar__mem(gr->t.alloc, gr->t.ud, gr->blocked, n, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->moves, n, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->rows, bits_words(gr) * sizeof(uint64_t), 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->cost, gr->cost ? n * sizeof(double) : 0, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->tag, gr->tag ? n * sizeof(uint16_t) : 0, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->log, gr->log_cap * sizeof *gr->log, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->clear, gr->clear ? n : 0, 0);
  astar__comp_free(&gr->t);
  astar__mem(gr->t.alloc, gr->t.ud, gr, sizeof *gr, 0);
}

astar_topology *astar_grid_topology(astar_grid *gr) { return &gr->t; }
int32_t astar_grid_width(const astar_grid *gr) { return gr->w; }
int32_t astar_grid_height(const astar_grid *gr) { return gr->h; }
int astar_grid_diagonal(const astar_grid *gr) { return gr->diagonal; }

/* A change to cell (x, y): a new version, and a line in the log. */
static void note_change(astar_grid *gr, int32_t x, int32_t y) {
  gr->t.version++;
  if (gr->log_cap > 0) {
    struct grid_change *e = &gr->log[gr->log_n++ % gr->log_cap];
    e->version = gr->t.version;
    e->cell = y * gr->w + x;
  }
}

int astar_grid_track_changes(astar_grid *gr, size_t cap) {
  if (cap <= gr->log_cap) return ASTAR_OK;
  /* a new ring starts empty: versions before it are simply not covered */
  astar__mem(gr->t.alloc, gr->t.ud, gr->log, gr->log_cap * sizeof *gr->log, 0);
  gr->log_cap = gr->log_n = 0;
  gr->log = (struct grid_change *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0,
                                             cap * sizeof *gr->log);
  if (gr->log == NULL) return ASTAR_ENOMEM;
  gr->log_cap = cap;
  return ASTAR_OK;
}

int astar_grid_changes(const astar_grid *gr, uint32_t since, int32_t *cells, size_t cap,
                       size_t *n) {
  uint32_t want = gr->t.version - since; /* versions (since, now]: modulo 2^32 */
  size_t kept = gr->log_n < gr->log_cap ? gr->log_n : gr->log_cap, i, found = 0;
  *n = 0;
  if (want == 0) return ASTAR_OK;
  if (want > kept || want > cap) return ASTAR_EOVERFLOW;
  /* the newest `want` entries must be exactly the versions since+1..now (a
  ** version made while the log was off, or before it, leaves a gap) */
  for (i = 0; i < want; i++) {
    const struct grid_change *e = &gr->log[(gr->log_n - 1 - i) % gr->log_cap];
    if (e->version != gr->t.version - (uint32_t)i) return ASTAR_EOVERFLOW;
    cells[found++] = e->cell;
  }
  *n = found;
  return ASTAR_OK;
}

int astar_grid_set_blocked(astar_grid *gr, int32_t x, int32_t y, int blocked) {
  if (gr->t.lock > 0) return ASTAR_EBUSY;
  if (!INSIDE(gr, x, y)) return ASTAR_EINVAL;
  blocked = blocked ? 1 : 0;
  if (gr->blocked[CELL(gr, x, y)] != blocked) { /* no change, no new version */
    gr->blocked[CELL(gr, x, y)] = (unsigned char)blocked;
    update_around(gr, CELL(gr, x, y));
    set_open_bit(gr, x + 1, y + 1, !blocked);
    if (gr->clear) clear_update(gr, x, y);
    note_change(gr, x, y);
    if (!blocked) {
      /* opening only adds steps: every new one touches this cell or joins
      ** two of its neighbours that its own steps now join (the diagonal
      ** rules only grow with open cells) */
      int32_t id = y * gr->w + x;
      unsigned m = gr->moves[CELL(gr, x, y)];
      int d;
      astar__comp_kept(&gr->t);
      astar__comp_node(&gr->t, id);
      for (d = 0; d < 8; d++)
        if (m >> d & 1u) astar__comp_union(&gr->t, id, id + dx[d] + dy[d] * gr->w);
    }
  }
  return ASTAR_OK;
}

int astar_grid_blocked(const astar_grid *gr, int32_t x, int32_t y) {
  if (!INSIDE(gr, x, y)) return ASTAR_EINVAL;
  return gr->blocked[CELL(gr, x, y)];
}

int astar_grid_set_cost(astar_grid *gr, int32_t x, int32_t y, double cost) {
  if (gr->t.lock > 0) return ASTAR_EBUSY;
  if (!INSIDE(gr, x, y) || !(cost >= 0) || !isfinite(cost)) return ASTAR_EINVAL;
  if (gr->cost == NULL) {
    size_t i, n = (size_t)gr->pw * (size_t)gr->ph;
    if (cost == 1.0) return ASTAR_OK; /* the layer would say the same */
    gr->cost = (double *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof(double));
    if (gr->cost == NULL) return ASTAR_ENOMEM;
    for (i = 0; i < n; i++) gr->cost[i] = 1.0;
  }
  if (gr->cost[CELL(gr, x, y)] != cost) {
    gr->cost[CELL(gr, x, y)] = cost;
    note_change(gr, x, y);
    astar__comp_kept(&gr->t); /* costs do not cut */
  }
  return ASTAR_OK;
}

int astar_grid_cost(const astar_grid *gr, int32_t x, int32_t y, double *cost) {
  if (!INSIDE(gr, x, y)) return ASTAR_EINVAL;
  *cost = gr->cost ? gr->cost[CELL(gr, x, y)] : 1.0;
  return ASTAR_OK;
}

int astar_grid_set_tag(astar_grid *gr, int32_t x, int32_t y, int32_t tag) {
  if (gr->t.lock > 0) return ASTAR_EBUSY;
  if (!INSIDE(gr, x, y) || tag < 0 || tag > 65535) return ASTAR_EINVAL;
  if (gr->tag == NULL) {
    size_t n = (size_t)gr->pw * (size_t)gr->ph;
    if (tag == 0) return ASTAR_OK;
    gr->tag = (uint16_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof(uint16_t));
    if (gr->tag == NULL) return ASTAR_ENOMEM;
    memset(gr->tag, 0, n * sizeof(uint16_t));
  }
  if (gr->tag[CELL(gr, x, y)] != tag) {
    gr->tag[CELL(gr, x, y)] = (uint16_t)tag;
    note_change(gr, x, y);
    astar__comp_kept(&gr->t);
  }
  return ASTAR_OK;
}

int astar_grid_tag(const astar_grid *gr, int32_t x, int32_t y, int32_t *tag) {
  if (!INSIDE(gr, x, y)) return ASTAR_EINVAL;
  *tag = gr->tag ? gr->tag[CELL(gr, x, y)] : 0;
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* line of sight                                                              */
/* ------------------------------------------------------------------------ */

/*
** Walks the cells the segment between the two cell centres passes through,
** in exact integer arithmetic (no rounding, so the answer is symmetric and
** reproducible).  After i steps in x and j in y the segment's next boundary
** crossing is vertical when (2i + 1) * ny < (2j + 1) * nx, horizontal when
** greater, and a grid corner when equal: there the two cells beside the
** corner must not both be blocked.
*/
static int sight(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1,
                 int32_t y1) {
  const unsigned char *b = gr->blocked;
  int64_t nx = x1 > x0 ? x1 - x0 : x0 - x1;
  int64_t ny = y1 > y0 ? y1 - y0 : y0 - y1;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  int32_t p = CELL(gr, x0, y0), stepx = sx, stepy = sy * gr->pw;
  int64_t i = 0, j = 0;
  if (b[p]) return 0;
  while (i < nx || j < ny) {
    int64_t d = (2 * i + 1) * ny - (2 * j + 1) * nx;
    if (d == 0) {
      if (b[p + stepx] && b[p + stepy]) return 0;
      p += stepx + stepy;
      i++;
      j++;
    } else if (d < 0) {
      p += stepx;
      i++;
    } else {
      p += stepy;
      j++;
    }
    if (b[p]) return 0;
  }
  return 1;
}

/* The segment test of anyangle.c for uniform costs: sight() with forbidden
** cells (forbid, indexed by cell id; may be NULL) counted as blocked and,
** when strict, a corner passed only with both cells beside it open. */
int astar__grid_pass(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                     const double *forbid, int strict) {
  const unsigned char *b = gr->blocked;
  int64_t nx = x1 > x0 ? x1 - x0 : x0 - x1;
  int64_t ny = y1 > y0 ? y1 - y0 : y0 - y1;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1, w = gr->w;
  int32_t p = CELL(gr, x0, y0), u = y0 * w + x0, stepx = sx, stepy = sy * gr->pw;
  int64_t i = 0, j = 0;
#define SHUT(p, u) (b[p] || (forbid && forbid[u] != 0))
  if (SHUT(p, u)) return 0;
  while (i < nx || j < ny) {
    int64_t d = (2 * i + 1) * ny - (2 * j + 1) * nx;
    if (d == 0) {
      int a = SHUT(p + stepx, u + sx), c = SHUT(p + stepy, u + sy * w);
      if (strict ? (a || c) : (a && c)) return 0;
      p += stepx + stepy;
      u += sx + sy * w;
      i++;
      j++;
    } else if (d < 0) {
      p += stepx;
      u += sx;
      i++;
    } else {
      p += stepy;
      u += sy * w;
      j++;
    }
    if (SHUT(p, u)) return 0;
  }
#undef SHUT
  return 1;
}

int astar_grid_line_of_sight(const astar_grid *gr, int32_t x0, int32_t y0,
                             int32_t x1, int32_t y1) {
  if (!INSIDE(gr, x0, y0) || !INSIDE(gr, x1, y1)) return ASTAR_EINVAL;
  return sight(gr, x0, y0, x1, y1);
}

/*
** sight() for a k x k unit (k > 1, clearance built): every cell of the unit
** walks the same cells relative to its own start, so the cells the unit
** crosses are the blocks at the cells the top-left cell crosses, each of
** which must fit (clearance >= k).  At a grid corner each of the k * k
** walks has its own two side cells: the blocks at the two side positions;
** when neither fits, the pairs are compared one by one (rare: only segments
** through exact corners near walls get there).
*/
static int sight_sized(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1,
                       int32_t y1, int32_t k) {
  const unsigned char *b = gr->blocked, *c = gr->clear;
  int64_t nx = x1 > x0 ? x1 - x0 : x0 - x1;
  int64_t ny = y1 > y0 ? y1 - y0 : y0 - y1;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  int32_t p = CELL(gr, x0, y0), stepx = sx, stepy = sy * gr->pw;
  int64_t i = 0, j = 0;
  if (c[p] < k) return 0;
  while (i < nx || j < ny) {
    int64_t d = (2 * i + 1) * ny - (2 * j + 1) * nx;
    if (d == 0) {
      if (c[p + stepx] < k && c[p + stepy] < k) {
        int32_t a, e;
        for (e = 0; e < k; e++)
          for (a = 0; a < k; a++) {
            int32_t r = p + e * gr->pw + a;
            if (b[r + stepx] && b[r + stepy]) return 0;
          }
      }
      p += stepx + stepy;
      i++;
      j++;
    } else if (d < 0) {
      p += stepx;
      i++;
    } else {
      p += stepy;
      j++;
    }
    if (c[p] < k) return 0;
  }
  return 1;
}

int astar_grid_line_of_sight_size(astar_grid *gr, int32_t x0, int32_t y0,
                                  int32_t x1, int32_t y1, int32_t size) {
  int rc;
  if (!INSIDE(gr, x0, y0) || !INSIDE(gr, x1, y1) || size < 1 || size > ASTAR_MAX_UNIT)
    return ASTAR_EINVAL;
  if (size == 1) return sight(gr, x0, y0, x1, y1);
  if ((rc = clear_build(gr)) != ASTAR_OK) return rc;
  return sight_sized(gr, x0, y0, x1, y1, size);
}

/* One ray per cell in the radius' bounding box: the same rule as
** line_of_sight by construction. */
int astar_grid_visible_from(const astar_grid *gr, int32_t x, int32_t y,
                            double radius, double *out) {
  int32_t x0 = 0, y0 = 0, x1 = gr->w - 1, y1 = gr->h - 1, cx, cy;
  if (!INSIDE(gr, x, y) || isnan(radius)) return ASTAR_EINVAL;
  memset(out, 0, (size_t)gr->w * (size_t)gr->h * sizeof(double));
  if (radius >= 0 && radius < 2.0 * ASTAR_GRID_MAX_SIDE) {
    int32_t r = (int32_t)radius;
    if (x - r > x0) x0 = x - r;
    if (y - r > y0) y0 = y - r;
    if (x + r < x1) x1 = x + r;
    if (y + r < y1) y1 = y + r;
  } else if (radius >= 0) {
    radius = -1; /* larger than any grid: unlimited */
  }
  if (gr->blocked[CELL(gr, x, y)]) return ASTAR_OK;
  for (cy = y0; cy <= y1; cy++)
    for (cx = x0; cx <= x1; cx++) {
      double ddx = cx - x, ddy = cy - y;
      if (radius >= 0 && ddx * ddx + ddy * ddy > radius * radius) continue;
      if (sight(gr, x, y, cx, cy)) out[(size_t)cy * (size_t)gr->w + (size_t)cx] = 1.0;
    }
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* expansions                                                                 */
/* ------------------------------------------------------------------------ */

/* All directions but the one back to p's parent: a child never improves its
** parent (g(parent) + 2 c >= g(parent) for any costs >= 0), so that step
** is never worth relaxing, whatever the heuristic. */
ASTAR_INLINE unsigned back_mask(const astar_search *s, int32_t p) {
  int32_t d = *parent_at(s, p);
  return d < 0 ? 0xffu : ~(1u << opposite[d]) & 0xffu;
}

/* The moves out of padded cell p (external id up) this query allows: the
** grid's own mask, or with a forbid field the same rule with forbidden cells
** counted as blocked. */
ASTAR_INLINE unsigned query_moves(const astar_search *s, const astar_grid *gr,
                                  int32_t p, int32_t up) {
  const double *forbid = s->q.forbid;
  unsigned open = 0;
  int d;
  if (!forbid) return gr->moves[p];
  for (d = 0; d < 8; d++)
    if (!gr->blocked[p + gr->off[d]] && forbid[up + dx[d] + dy[d] * gr->w] == 0)
      open |= 1u << d;
  return rule_moves(gr->diagonal, open);
}

/* The cost of entering padded cell q by direction d, before the query's
** modifiers. */
ASTAR_INLINE double base_cost(const astar_grid *gr, int32_t q, int d) {
  double c = d < 4 ? 1.0 : ASTAR_GRID_DIAG;
  return gr->cost ? c * gr->cost[q] : c;
}

/*
** Sized units (query.size = k > 1).  The unit at a cell is the k x k block
** whose top-left cell it is.  It fits where the block is open (the
** clearance layer answers that in one read) and none of its cells is
** forbidden; the move rules are the one-cell rules with "the neighbour is
** open" read as "the unit fits there" (a diagonal step's side cells become
** the unit at the two side positions).  A step costs the largest of the
** entered block's cell costs.  One-cell queries never come here.
*/

/* The query's unit fits at padded cell p (external id up). */
ASTAR_INLINE int unit_fits(const astar_search *s, const astar_grid *gr, int32_t p,
                           int32_t up) {
  const double *forbid = s->q.forbid;
  int32_t k = s->q.size, a, e;
  if (gr->clear[p] < k) return 0; /* also every block past the border */
  if (forbid)
    for (e = 0; e < k; e++)
      for (a = 0; a < k; a++)
        if (forbid[up + e * gr->w + a] != 0) return 0;
  return 1;
}

/* The moves the unit at padded cell p (external id up) may make: forwards,
** or read backwards (the rule is symmetric, as for one cell). */
static unsigned unit_moves(const astar_search *s, const astar_grid *gr, int32_t p,
                           int32_t up) {
  unsigned open = 0;
  int d;
  for (d = 0; d < 8; d++)
    if (unit_fits(s, gr, p + gr->off[d], up + dx[d] + dy[d] * gr->w)) open |= 1u << d;
  return rule_moves(gr->diagonal, open);
}

/*
** The cost of the unit's step from external cell `from` into the block at
** padded cell q (external id uq) by direction d, the callback aside: the
** largest of the block's cells' costs, each computed by query_step as a
** one-cell step into it would be (so a cell that forbids, or whose cost is
** bad, decides the step and is the one an error names).  Without cell
** costs, tag factors or a penalty every cell costs the step's length, and
** nothing is read.  Returns as query_step.
*/
static int unit_cost(astar_search *s, const astar_grid *gr, int32_t from, int32_t q,
                     int32_t uq, int d, double *c) {
  int32_t k = s->q.size, a, e;
  double most = 0;
  if (!gr->cost && !(gr->tag && s->q.tag_factor) && !s->q.penalty) {
    *c = d < 4 ? 1.0 : ASTAR_GRID_DIAG;
    return 1;
  }
  for (e = 0; e < k; e++)
    for (a = 0; a < k; a++) {
      int32_t r = q + e * gr->pw + a;
      double v = base_cost(gr, r, d);
      int rc = query_step(s, from, uq + e * gr->w + a, d, gr->tag ? gr->tag[r] : 0, &v, 0);
      if (rc <= 0) return rc;
      if (v > most || (a | e) == 0) most = v;
    }
  *c = most;
  return 1;
}

/* expand_grid for a sized unit: the loops of sized queries are instantiated
** apart (grid_run_sized), so one-cell queries pay nothing for them. */
static int expand_sized(astar_search *s, int32_t p) {
  const astar_grid *gr = CGRID(s->topo);
  int32_t py = grid_row(gr, p), px = p - py * gr->pw, up = (py - 1) * gr->w + (px - 1);
  double gp = node_at(s, p)->g, x = px - 1, y = py - 1;
  unsigned m = unit_moves(s, gr, p, up) & back_mask(s, p);
  int d, rc;
  for (d = 0; m != 0; d++, m >>= 1) {
    int32_t q = p + gr->off[d], uq = up + dx[d] + dy[d] * gr->w;
    double c;
    if (!(m & 1)) continue;
    if ((rc = unit_cost(s, gr, up, q, uq, d, &c)) <= 0 ||
        (rc = query_callback(s, up, uq, d, &c)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    rc = relax_impl(s, q, uq, d, gp + c, c, x + dx[d], y + dy[d], 0, grid_h);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* expand_grid_rev for a sized unit: each position a the unit may step to p
** from offers that step, at the cost of entering p's block. */
static int expand_sized_rev(astar_search *s, int32_t p) {
  const astar_grid *gr = CGRID(s->topo);
  int32_t py = grid_row(gr, p), px = p - py * gr->pw, up = (py - 1) * gr->w + (px - 1);
  double gp = node_at(s, p)->g, x = px - 1, y = py - 1;
  unsigned m = unit_moves(s, gr, p, up);
  int d, rc;
  for (d = 0; m != 0; d++, m >>= 1) {
    int32_t a = p + gr->off[d], ua = up + dx[d] + dy[d] * gr->w;
    int back = opposite[d];
    double c;
    if (!(m & 1)) continue;
    if ((rc = unit_cost(s, gr, ua, p, up, back, &c)) <= 0 ||
        (rc = query_callback(s, ua, up, back, &c)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    rc = relax_impl(s, a, ua, back, gp + c, c, x + dx[d], y + dy[d], 0, grid_h);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* The general case: cell costs, tag factors, penalty and forbid fields, a
** cost callback, budgets. */
static int expand_grid(astar_search *s, int32_t p) {
  const astar_grid *gr = CGRID(s->topo);
  int32_t w = gr->w, py = grid_row(gr, p), px = p - py * gr->pw;
  int32_t up = (py - 1) * w + (px - 1);
  double gp = node_at(s, p)->g, x = px - 1, y = py - 1;
  unsigned m = query_moves(s, gr, p, up) & back_mask(s, p);
  int d, rc;
  for (d = 0; m != 0; d++, m >>= 1) {
    int32_t q = p + gr->off[d], uq = up + dx[d] + dy[d] * w;
    double c;
    if (!(m & 1)) continue;
    c = base_cost(gr, q, d);
    if ((rc = query_step(s, up, uq, d, gr->tag ? gr->tag[q] : 0, &c, 1)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    rc = relax_impl(s, q, uq, d, gp + c, c, x + dx[d], y + dy[d], 0, grid_h);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* Reverse expansion: each neighbour a that may step to p offers the step
** a -> p (the cost of entering p); a's link becomes the direction of that
** step. */
static int expand_grid_rev(astar_search *s, int32_t p) {
  const astar_grid *gr = CGRID(s->topo);
  int32_t w = gr->w, py = grid_row(gr, p), px = p - py * gr->pw;
  int32_t up = (py - 1) * w + (px - 1);
  double gp = node_at(s, p)->g, x = px - 1, y = py - 1;
  unsigned m = query_moves(s, gr, p, up);
  int d, rc;
  for (d = 0; m != 0; d++, m >>= 1) {
    int32_t a = p + gr->off[d], ua = up + dx[d] + dy[d] * w;
    int back = opposite[d]; /* the direction of the step a -> p */
    double c;
    if (!(m & 1)) continue;
    c = base_cost(gr, p, back);
    if ((rc = query_step(s, ua, up, back, gr->tag ? gr->tag[p] : 0, &c, 1)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    rc = relax_impl(s, a, ua, back, gp + c, c, x + dx[d], y + dy[d], 0, grid_h);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* The fast path: the grid's move mask already applies the blocked cells and
** the diagonal rule, and every step costs 1 or ASTAR_GRID_DIAG. */
ASTAR_INLINE int expand_grid_plain(astar_search *s, int32_t p) {
  const astar_grid *gr = CGRID(s->topo);
  unsigned m = gr->moves[p] & back_mask(s, p);
  int32_t py = grid_row(gr, p), px = p - py * gr->pw;
  double gp = node_at(s, p)->g, x = px - 1, y = py - 1;
  int d, rc;
  for (d = 0; m != 0; d++, m >>= 1) {
    if (!(m & 1)) continue;
    rc = relax_impl(s, p + gr->off[d], 0, d, gp + (d < 4 ? 1.0 : ASTAR_GRID_DIAG), 0,
                    x + dx[d], y + dy[d], 1, grid_h); /* ext: unused when plain */
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

static int grid_run(astar_search *s, uint64_t n) { return search_loop(s, n, expand_grid); }
static int grid_run_plain(astar_search *s, uint64_t n) {
  return search_loop(s, n, expand_grid_plain);
}
static int grid_run_reverse(astar_search *s, uint64_t n) {
  return search_loop(s, n, expand_grid_rev);
}
static int grid_run_sized(astar_search *s, uint64_t n) { return search_loop(s, n, expand_sized); }
static int grid_run_sized_reverse(astar_search *s, uint64_t n) {
  return search_loop(s, n, expand_sized_rev);
}

/* ------------------------------------------------------------------------ */
/* repairing a distance field                                                 */
/* ------------------------------------------------------------------------ */

/* astar_node.pos of a node imported from an old field: reached, not open,
** and not closed either, so an improvement of any size is taken (a closed
** node takes only improvements above REOPEN_EPS; a fresh search would have
** taken this one while the node was open). */
#define POS_IMPORTED (-3)

/* The tree parent of reached padded cell p (-1 at a source). */
ASTAR_INLINE int32_t repair_parent(const astar_search *s, const astar_grid *gr, int32_t p) {
  int32_t d = *parent_at(s, p);
  if (d < 0) return -1;
  return s->reverse ? p + gr->off[d] : p - gr->off[d];
}

ASTAR_INLINE int repair_reached(const astar_search *s, int32_t p) {
  return node_seen(s, p);
}

/* Puts reached node p back on the open list at its g, to expand it again. */
ASTAR_INLINE int repair_reopen(astar_search *s, int32_t p) {
  if (!repair_reached(s, p) || node_at(s, p)->pos >= 0 || node_at(s, p)->pos == POS_NEXT)
    return ASTAR_OK;
  s->st.generated++;
  return heap_push(s, &s->open, p, node_at(s, p)->g, tie_key(s, 0.0), 0);
}

/* Resets reached cell p (it loses its route) and queues it; *n counts the
** queue.  Its parent link stays: its children are found by it. */
ASTAR_INLINE void repair_reset(astar_search *s, int32_t p, int32_t *queue, size_t *n) {
  node_at(s, p)->stamp = 0; /* never a live generation */
  node_at(s, p)->pos = POS_CLOSED;
  queue[(*n)++] = p;
}

int astar_grid_repair_distances(astar_search *s, astar_grid *gr, const int32_t *sources,
                                size_t nsources, int reverse, const astar_query *q,
                                const double *dist, const signed char *link,
                                const int32_t *changed, size_t nchanged) {
  int32_t n = gr->w * gr->h, x, y, *queue;
  size_t span = (size_t)gr->pw * (size_t)gr->ph, k, head, ndirty = 0;
  int rc;
  /* a cost callback's costs are not logged; a sized unit's steps depend on
  ** the clearance of cells up to its size away, not on a 3x3 block */
  if (q->cost_fn != NULL || q->size > 1) return ASTAR_EINVAL;
  for (k = 0; k < nsources; k++)
    if (sources[k] < 0 || sources[k] >= n) return ASTAR_EINVAL;
  for (k = 0; k < nchanged; k++)
    if (changed[k] < 0 || changed[k] >= n) return ASTAR_EINVAL;
  /* an empty distance search: its state is filled in below */
  if ((rc = astar_search_begin_distances(s, &gr->t, sources, 0, reverse, q)) != ASTAR_OK)
    return rc;
  s->status = ASTAR_ESTATE; /* until the state is complete */
  /* the queue of reset cells, in the search's id scratch (each cell is
  ** reset at most once: a reset cell is no longer reached) */
  if (astar__resize(s->alloc, s->ud, (void **)&s->ids, &s->ids_cap, span, sizeof(int32_t)))
    return ASTAR_ENOMEM;
  queue = s->ids;
  /* 1. the old field, as a finished search's state */
  for (y = 0; y < gr->h; y++) {
    const double *dr = dist + (size_t)y * (size_t)gr->w;
    const signed char *lr = link + (size_t)y * (size_t)gr->w;
    for (x = 0; x < gr->w; x++) {
      int32_t p = CELL(gr, x, y);
      astar_page *pg;
      astar_node *nd;
      if (!(dr[x] < HUGE_VAL)) continue;
      if ((pg = page_touch(s, p, 0)) == NULL) return ASTAR_ENOMEM;
      nd = &pg->ns[p & ASTAR_PAGE_MASK];
      nd->g = dr[x];
      nd->stamp = s->gen;
      nd->pos = POS_IMPORTED;
      pg->parent[p & ASTAR_PAGE_MASK] = lr[x];
    }
  }
  /* 2. the steps an edit can change: a step between two cells is decided by
  ** the two cells and, for a diagonal, its two side cells -- all within the
  ** 3x3 block around the edited cell.  Every reached cell of that block whose
  ** tree step starts in the block may have lost its route (the edited cell
  ** itself always: it may be blocked now) */
  for (k = 0; k < nchanged; k++) {
    int32_t P = CELL(gr, changed[k] % gr->w, changed[k] / gr->w), d;
    if (repair_reached(s, P)) repair_reset(s, P, queue, &ndirty);
    for (d = 0; d < 8; d++) {
      int32_t v = P + gr->off[d], u, e;
      if (!repair_reached(s, v) || (u = repair_parent(s, gr, v)) < 0) continue;
      for (e = 0; e < 8 && u != P + gr->off[e]; e++) continue;
      if (u == P || e < 8) repair_reset(s, v, queue, &ndirty);
    }
  }
  /* 3. ... and so has every cell whose route passes one of them: the
  ** subtrees, found through the children (a cell's children are among its
  ** neighbours, and name it as their parent) */
  for (head = 0; head < ndirty; head++) {
    int32_t v = queue[head], d;
    for (d = 0; d < 8; d++) {
      int32_t u = v + gr->off[d];
      if (repair_reached(s, u) && repair_parent(s, gr, u) == v)
        repair_reset(s, u, queue, &ndirty);
    }
  }
  s->status = ASTAR_SEARCHING;
  /* 4. what the search starts from: the sources it lacks (reset, or opened
  ** since), every reached cell beside a reset one (the boundary the reset
  ** region is re-relaxed from), and the reached cells around each edit (an
  ** opened cell, a cheaper one or a newly allowed diagonal relaxes outward
  ** from there) */
  for (k = 0; k < nsources; k++) {
    int32_t p = CELL(gr, sources[k] % gr->w, sources[k] / gr->w);
    if (repair_reached(s, p) || gr->blocked[p] || (q->forbid && q->forbid[sources[k]] != 0))
      continue;
    rc = relax_impl(s, p, sources[k], -1, 0.0, 0.0, 0, 0, 0, grid_h);
    if (rc != ASTAR_OK) return s->status = rc;
  }
  for (k = 0; k < ndirty; k++) {
    int d;
    for (d = 0; d < 8; d++)
      if ((rc = repair_reopen(s, queue[k] + gr->off[d])) != ASTAR_OK) return s->status = rc;
  }
  for (k = 0; k < nchanged; k++) {
    int32_t P = CELL(gr, changed[k] % gr->w, changed[k] / gr->w), d;
    if ((rc = repair_reopen(s, P)) != ASTAR_OK) return s->status = rc;
    for (d = 0; d < 8; d++)
      if ((rc = repair_reopen(s, P + gr->off[d])) != ASTAR_OK) return s->status = rc;
  }
  return ASTAR_OK;
}

int astar_grid_export_distances(const astar_search *s, const astar_grid *gr, double *dist,
                                int32_t *next, signed char *link) {
  int32_t x, y;
  if (s->status != ASTAR_FOUND || s->topo != &gr->t || s->goal != -1) return ASTAR_ESTATE;
  for (y = 0; y < gr->h; y++) {
    size_t row = (size_t)y * (size_t)gr->w;
    int32_t p0 = CELL(gr, 0, y);
    for (x = 0; x < gr->w; x++) {
      int32_t p = p0 + x, d;
      size_t c = row + (size_t)x;
      const astar_node *nd;
      if (!node_seen(s, p)) {
        dist[c] = HUGE_VAL;
        next[c] = -1;
        link[c] = -1;
        continue;
      }
      nd = node_at(s, p);
      if (nd->pos == POS_IMPORTED) continue; /* a repair left it as it was */
      d = *parent_at(s, p);
      dist[c] = nd->g;
      link[c] = (signed char)d;
      if (d < 0) {
        next[c] = -1;
      } else {
        int32_t u = s->reverse ? p + gr->off[d] : p - gr->off[d];
        int32_t uy = grid_row(gr, u);
        next[c] = (uy - 1) * gr->w + (u - uy * gr->pw - 1);
      }
    }
  }
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* topology operations                                                        */
/* ------------------------------------------------------------------------ */

static int32_t grid_count(const astar_topology *t) { return CGRID(t)->w * CGRID(t)->h; }
static size_t grid_span(const astar_topology *t) {
  return (size_t)CGRID(t)->pw * (size_t)CGRID(t)->ph;
}

static int32_t grid_internal(const astar_topology *t, int32_t c) {
  const astar_grid *gr = CGRID(t);
  return (c / gr->w + 1) * gr->pw + c % gr->w + 1;
}

static int32_t grid_external(const astar_topology *t, int32_t p) {
  const astar_grid *gr = CGRID(t);
  int32_t y = grid_row(gr, p);
  return (y - 1) * gr->w + (p - y * gr->pw - 1);
}

static int grid_passable(const astar_topology *t, int32_t p) {
  return !CGRID(t)->blocked[p];
}

static void grid_position(const astar_topology *t, int32_t p, double xyz[3]) {
  const astar_grid *gr = CGRID(t);
  int32_t y = grid_row(gr, p);
  xyz[0] = p - y * gr->pw - 1;
  xyz[1] = y - 1;
  xyz[2] = 0;
}

static int grid_prepare(astar_topology *t, int reverse) {
  (void)t;
  (void)reverse;
  return ASTAR_OK;
}

static int32_t grid_link_from(const astar_topology *t, int32_t p, int32_t d) {
  return p - CGRID(t)->off[d];
}

static int32_t grid_link_to(const astar_topology *t, int32_t p, int32_t d) {
  return p + CGRID(t)->off[d];
}

/* See graph_step_cost: the search accepted this step, query_step cannot
** fail here. */
static int grid_step_cost(const astar_search *s, int32_t p, int32_t d, double *c) {
  const astar_grid *gr = CGRID(s->topo);
  if (s->q.size > 1)
    return unit_cost((astar_search *)s, gr, grid_external(s->topo, p - gr->off[d]), p,
                     grid_external(s->topo, p), d, c) > 0;
  *c = base_cost(gr, p, d);
  return query_step((astar_search *)s, grid_external(s->topo, p - gr->off[d]),
                    grid_external(s->topo, p), d, gr->tag ? gr->tag[p] : 0, c, 0) > 0;
}

static void grid_each_step(const astar_topology *t, astar_step_visit visit, void *ctx) {
  const astar_grid *gr = CGRID(t);
  int32_t x, y, d;
  for (y = 0; y < gr->h; y++)
    for (x = 0; x < gr->w; x++) {
      int32_t p = CELL(gr, x, y);
      unsigned m = gr->moves[p];
      for (d = 0; d < 8; d++)
        if (m >> d & 1u)
          visit(ctx, y * gr->w + x, (y + dy[d]) * gr->w + x + dx[d],
                base_cost(gr, p + gr->off[d], d));
    }
}

/* Octile with the grid's own diagonal, straight from the cell ids. */
static double grid_distance(const astar_topology *t, int32_t a, int32_t b) {
  int32_t w = CGRID(t)->w;
  double ax = fabs((double)(a % w - b % w)), ay = fabs((double)(a / w - b / w));
  return ax < ay ? (ASTAR_GRID_DIAG - 1) * ax + ay : (ASTAR_GRID_DIAG - 1) * ay + ax;
}

static double grid_estimate(const astar_search *s, int32_t p) {
  const astar_grid *gr = CGRID(s->topo);
  int32_t y = grid_row(gr, p);
  return grid_h(s, p, p - y * gr->pw - 1, y - 1);
}

static int grid_default_heuristic(const astar_topology *t) {
  return CGRID(t)->diagonal == ASTAR_DIAG_NEVER ? ASTAR_H_MANHATTAN : ASTAR_H_OCTILE;
}

/* The grid's part of the fast-path decision: every step costs its length. */
static int grid_plain(const astar_topology *t) { return CGRID(t)->cost == NULL; }

/* Sized units need the clearance layer. */
static int grid_sized(astar_topology *t) { return clear_build(GRID(t)); }

static int grid_holds(const astar_search *s, int32_t p) {
  return unit_fits(s, CGRID(s->topo), p, grid_external(s->topo, p));
}

static size_t grid_bytes(const astar_topology *t) {
  const astar_grid *gr = CGRID(t);
  size_t n = (size_t)gr->pw * (size_t)gr->ph;
  return sizeof *gr + 2 * n + bits_words(gr) * sizeof(uint64_t) +
         (gr->cost ? n * sizeof(double) : 0) + (gr->tag ? n * sizeof(uint16_t) : 0) +
         (gr->clear ? n : 0);
}

static const astar_topo_ops grid_ops = {
    .kind = "grid",
    .count = grid_count,
    .span = grid_span,
    .internal = grid_internal,
    .external = grid_external,
    .passable = grid_passable,
    .position = grid_position,
    .prepare = grid_prepare,
    .link_from = grid_link_from,
    .link_to = grid_link_to,
    .step_cost = grid_step_cost,
    .each_step = grid_each_step,
    .default_heuristic = grid_default_heuristic,
    .heuristics = HEURISTICS_SPATIAL,
    .estimate = grid_estimate,
    .distance = grid_distance,
    .octile_k = ASTAR_GRID_DIAG - 1,
    .plain = grid_plain,
    .run_general = grid_run,
    .run_plain = grid_run_plain,
    .run_reverse = grid_run_reverse,
    .jps_refusal = astar__grid_jps_refusal,
    .run_jps = astar__grid_run_jps,
    .run_jps_plain = astar__grid_run_jps_plain,
    .jps_path = astar__grid_jps_path,
    .bytes = grid_bytes,
    .sized = grid_sized,
    .holds = grid_holds,
    .run_sized = grid_run_sized,
    .run_sized_reverse = grid_run_sized_reverse,
};
