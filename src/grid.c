/*
** grid.c -- square grids: the shape of a cell lattice (lattice.h) with
** four or eight neighbours.  Its neighbourhood and diagonal rule as data,
** the octile metric, exact line of sight (for one cell and for a k x k
** unit), the clearance of k x k units, and its topology operations, whose
** expansions are lattice.h's template instantiated once per mode.  Jump
** point search, its own ability, is jps.c.
**
** Directions 0..3 are cardinal (E, W, S, N), 4..7 diagonal (SE, NE, SW,
** NW).  A unit of size k stands at the top-left cell of its k x k block.
*/
#include <math.h>
#include <string.h>

#include "lattice.h"

static const signed char dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const signed char dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

static const lat_shape square;

/* ------------------------------------------------------------------------ */
/* line of sight                                                              */
/* ------------------------------------------------------------------------ */

/*
** Walks the cells the segment between the two cell centres passes through,
** in exact integer arithmetic (no rounding, so the answer is symmetric and
** reproducible).  After i steps in x and j in y the segment's next boundary
** crossing is vertical when (2i + 1) * ny < (2j + 1) * nx, horizontal when
** greater, and a grid corner when equal: there the two cells beside the
** corner must not both be blocked -- except on "always" grids, where a
** step squeezes between two diagonal walls and so may a line (the line of
** sight then agrees with find_path, connected and the any-angle paths).
*/
static int square_sight(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1,
                        int32_t y1) {
  const unsigned char *b = gr->blocked;
  int64_t nx = x1 > x0 ? x1 - x0 : x0 - x1;
  int64_t ny = y1 > y0 ? y1 - y0 : y0 - y1;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  int32_t p = LAT_CELL(gr, x0, y0), stepx = sx, stepy = sy * gr->pw;
  int64_t i = 0, j = 0;
  if (b[p]) return 0;
  while (i < nx || j < ny) {
    int64_t d = (2 * i + 1) * ny - (2 * j + 1) * nx;
    if (d == 0) {
      if (b[p + stepx] && b[p + stepy] && gr->rule != ASTAR_DIAG_ALWAYS) return 0;
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
** when strict, a corner passed only with both cells beside it open (on
** "always" grids, as in sight(), a corner never stops it).  sight()'s walk
** with its test kept as an error term, d = (2i + 1) ny - (2j + 1) nx moved
** by 2 ny a step in x and by -2 nx a step in y (no products a cell), in
** runs of steps along one axis, ending at the last cell (p == end); and
** without the forbid field a loop that reads the blocked bytes alone: the
** any-angle mode's segment tests are most of its time (taut.c, refine). */
#define PASS_WALK(SHUT) \
  do { \
    if (SHUT(p, u)) return 0; \
    while (p != end) { \
      if (d < 0) { \
        do { \
          p += stepx; \
          u += sx; \
          if (SHUT(p, u)) return 0; \
          d += ex; \
        } while (d < 0 && p != end); \
      } else if (d > 0) { \
        do { \
          p += stepy; \
          u += uy; \
          if (SHUT(p, u)) return 0; \
          d -= ey; \
        } while (d > 0 && p != end); \
      } else { \
        int a = SHUT(p + stepx, u + sx), c = SHUT(p + stepy, u + uy); \
        if (strict ? (a || c) : (a && c && !always)) return 0; \
        p += stepx + stepy; \
        u += sx + uy; \
        if (SHUT(p, u)) return 0; \
        d += ex - ey; \
      } \
    } \
  } while (0)

int astar__grid_pass(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                     const double *forbid, int strict) {
  const unsigned char *b = gr->blocked;
  int64_t nx = x1 > x0 ? (int64_t)x1 - x0 : (int64_t)x0 - x1;
  int64_t ny = y1 > y0 ? (int64_t)y1 - y0 : (int64_t)y0 - y1;
  int64_t d = ny - nx, ex = 2 * ny, ey = 2 * nx;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1, w = gr->w, uy = sy * w;
  int32_t p = LAT_CELL(gr, x0, y0), u = y0 * w + x0, stepx = sx, stepy = sy * gr->pw;
  int32_t end = LAT_CELL(gr, x1, y1);
  int always = gr->rule == ASTAR_DIAG_ALWAYS;
#define PASS_BLOCKED(p, u) b[p]
#define PASS_SHUT(p, u) (b[p] || filter_field_forbids(forbid, u))
  if (forbid == NULL)
    PASS_WALK(PASS_BLOCKED);
  else
    PASS_WALK(PASS_SHUT);
#undef PASS_BLOCKED
#undef PASS_SHUT
  (void)u;
  return 1;
}
#undef PASS_WALK

unsigned astar__grid_moves(const astar_grid *gr, int32_t x, int32_t y, const double *forbid) {
  int32_t p = LAT_CELL(gr, x, y), w = gr->w, d;
  unsigned open = 0;
  if (forbid == NULL) return gr->moves[p];
  for (d = 0; d < 8; d++) {
    int32_t nx = x + dx[d], ny = y + dy[d];
    if (!gr->blocked[p + dx[d] + dy[d] * gr->pw] && !filter_field_forbids(forbid, ny * w + nx)) open |= 1u << d;
  }
  return lat_rule_moves(gr, open);
}

int astar__grid_walled(const astar_grid *gr, int32_t x, int32_t y) {
  const unsigned char *b = gr->blocked;
  int32_t p = LAT_CELL(gr, x, y), pw = gr->pw;
  /* the padding round the grid reads as blocked: a wall too */
  return b[p - pw - 1] | b[p - pw] | b[p - pw + 1] | b[p - 1] | b[p] | b[p + 1] | b[p + pw - 1] |
         b[p + pw] | b[p + pw + 1];
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
static int square_sight_unit(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1,
                             int32_t y1, int32_t k) {
  const unsigned char *b = gr->blocked, *c = gr->clear;
  int64_t nx = x1 > x0 ? x1 - x0 : x0 - x1;
  int64_t ny = y1 > y0 ? y1 - y0 : y0 - y1;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  int32_t p = LAT_CELL(gr, x0, y0), stepx = sx, stepy = sy * gr->pw;
  int64_t i = 0, j = 0;
  if (c[p] < k) return 0;
  while (i < nx || j < ny) {
    int64_t d = (2 * i + 1) * ny - (2 * j + 1) * nx;
    if (d == 0) {
      if (c[p + stepx] < k && c[p + stepy] < k && gr->rule != ASTAR_DIAG_ALWAYS) {
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

/* Within a Euclidean radius, in cells (visible_from). */
static int square_in_radius(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x, int32_t y,
                            double radius) {
  double ddx = x - x0, ddy = y - y0;
  (void)gr;
  return ddx * ddx + ddy * ddy <= radius * radius;
}

/* ------------------------------------------------------------------------ */
/* units: k x k blocks                                                        */
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
static int square_clear_build(astar_grid *gr) {
  size_t n = (size_t)gr->pw * (size_t)gr->ph;
  int32_t x, y;
  if (gr->clear != NULL) return ASTAR_OK;
  gr->clear = (unsigned char *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n);
  if (gr->clear == NULL) return ASTAR_ENOMEM;
  memset(gr->clear, 0, n);
  for (y = gr->h - 1; y >= 0; y--)
    for (x = gr->w - 1; x >= 0; x--) gr->clear[LAT_CELL(gr, x, y)] = clear_at(gr, LAT_CELL(gr, x, y));
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
static void square_clear_update(astar_grid *gr, int32_t x, int32_t y) {
  int32_t lo = x + 1, row, i; /* lo: the leftmost column that changed below */
  for (row = y; row >= 0; row--) {
    int32_t from = row == y ? x : (lo > 0 ? lo - 1 : 0), newlo = x + 1;
    int changed = 0;
    for (i = x; i >= 0; i--) {
      int32_t p = LAT_CELL(gr, i, row);
      unsigned char v = clear_at(gr, p);
      if (v != gr->clear[p]) {
        if (gr->ubits) astar__ubits_set(gr, p, gr->clear[p], v);
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

/* The cells of the k x k block at a cell, its top-left cell first. */
static int32_t square_unit_cells(const astar_grid *gr, int32_t k, int par, int32_t *pad,
                                 int32_t *ext) {
  int32_t a, e, n = 0;
  (void)par;
  for (e = 0; e < k; e++)
    for (a = 0; a < k; a++) {
      pad[n] = e * gr->pw + a;
      ext[n++] = e * gr->w + a;
    }
  return n;
}

static int32_t square_unit_count(int32_t k) { return k * k; }

static int square_in_unit(const astar_grid *gr, int32_t x, int32_t y, int32_t k, int32_t cx,
                          int32_t cy) {
  (void)gr;
  return cx >= x && cy >= y && cx < x + k && cy < y + k;
}

/* ------------------------------------------------------------------------ */
/* the shape                                                                  */
/* ------------------------------------------------------------------------ */

unsigned astar__grid_rule_moves(const astar_grid *gr, unsigned open) {
  return lat_rule_moves(gr, open);
}

astar_grid *astar_grid_new(int32_t width, int32_t height, int diagonal, astar_alloc_fn alloc,
                           void *ud) {
  /* a diagonal's side cells: the cardinal neighbours it passes between */
  static const unsigned char side[8][2] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 2}, {0, 3}, {1, 2}, {1, 3}};
  lat_geometry geo;
  int d;
  if (width < 1 || height < 1 || width > ASTAR_GRID_MAX_SIDE ||
      height > ASTAR_GRID_MAX_SIDE || (int64_t)width * height >= (1 << 30))
    return NULL;
  if (diagonal < ASTAR_DIAG_NEVER || diagonal > ASTAR_DIAG_ALWAYS) return NULL;
  memset(&geo, 0, sizeof geo);
  /* the 4-connected grid has its first four directions only; the tables
  ** keep all eight (jump point search reads them) */
  geo.ndir = diagonal == ASTAR_DIAG_NEVER ? 4 : 8;
  for (d = 0; d < 8; d++) {
    geo.ddx[0][d] = geo.ddx[1][d] = dx[d];
    geo.ddy[0][d] = geo.ddy[1][d] = dy[d];
  }
  geo.straight = 0x0fu;
  geo.diag = diagonal == ASTAR_DIAG_NEVER ? 0u : 0xf0u;
  memcpy(geo.side, side, sizeof side);
  geo.rule = diagonal;
  geo.layout = -1;
  geo.bitsets = 1;
  return astar__lat_new(&square, &geo, width, height, alloc, ud);
}

int astar_grid_diagonal(const astar_grid *gr) {
  return gr->shape == &square ? gr->rule : ASTAR_EINVAL;
}

/* ------------------------------------------------------------------------ */
/* the metric and the modes                                                   */
/* ------------------------------------------------------------------------ */

/* Where an expansion of padded cell p starts: no parity; the metric
** coordinates are the column and the row. */
ASTAR_INLINE lat_at square_locate(const astar_grid *gr, int32_t p) {
  lat_at a;
  int32_t py = lat_row(gr, p), px = p - py * gr->pw;
  a.par = 0;
  a.up = (py - 1) * gr->w + (px - 1);
  a.mx = px - 1;
  a.my = py - 1;
  return a;
}

/* Cardinal steps are 1 long, diagonal ones the grid's sqrt 2. */
ASTAR_INLINE double square_len(int d) { return d < 4 ? 1.0 : ASTAR_GRID_DIAG; }

LAT_MODES(square, square, square_locate, square_len, lat_h_plane)

static void square_position(const astar_topology *t, int32_t p, double xyz[3]) {
  const astar_grid *gr = (const astar_grid *)t;
  int32_t y = lat_row(gr, p);
  xyz[0] = p - y * gr->pw - 1;
  xyz[1] = y - 1;
  xyz[2] = 0;
}

/* Octile with the grid's own diagonal, straight from the cell ids. */
static double square_distance(const astar_topology *t, int32_t a, int32_t b) {
  int32_t w = ((const astar_grid *)t)->w;
  double ax = fabs((double)(a % w - b % w)), ay = fabs((double)(a / w - b / w));
  return ax < ay ? (ASTAR_GRID_DIAG - 1) * ax + ay : (ASTAR_GRID_DIAG - 1) * ay + ax;
}

static double square_estimate(const astar_search *s, int32_t p) {
  lat_at a = square_locate((const astar_grid *)s->topo, p);
  return lat_h_plane(s, p, a.mx, a.my);
}

static int square_default_heuristic(const astar_topology *t) {
  return ((const astar_grid *)t)->rule == ASTAR_DIAG_NEVER ? ASTAR_H_MANHATTAN : ASTAR_H_OCTILE;
}

static const astar_topo_ops square_ops = {
    .kind = "grid",
    .noun = "a grid",
    .abilities = ASTAR_CAN_CELLS | ASTAR_CAN_REPAIR | ASTAR_CAN_SEGMENTS,
    LAT_SHARED_OPS,
    .position = square_position,
    .default_heuristic = square_default_heuristic,
    .heuristics = HEURISTICS_SPATIAL,
    .estimate = square_estimate,
    .distance = square_distance,
    .octile_k = ASTAR_GRID_DIAG - 1,
    .run = LAT_RUNS(square),
    .jps = &astar__grid_jps,
};

static const lat_shape square = {
    .ops = &square_ops,
    .opp = {1, 0, 3, 2, 7, 6, 5, 4},
    .len = {1.0, 1.0, 1.0, 1.0, ASTAR_GRID_DIAG, ASTAR_GRID_DIAG, ASTAR_GRID_DIAG,
            ASTAR_GRID_DIAG},
    .mdx = {1, -1, 0, 0, 1, 1, -1, -1},
    .mdy = {0, 0, 1, -1, 1, -1, 1, -1},
    .sight = square_sight,
    .sight_unit = square_sight_unit,
    .in_radius = square_in_radius,
    .clear_build = square_clear_build,
    .clear_update = square_clear_update,
    .unit_cells = square_unit_cells,
    .unit_count = square_unit_count,
    .in_unit = square_in_unit,
};
