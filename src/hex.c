/*
** hex.c -- hex grids: the shape of a cell lattice (lattice.h) with six
** neighbours, in offset coordinates (the four layouts of the usual hex-grid
** guide, Red Blob Games' "Hexagonal Grids").  Its neighbourhood as data
** (which steps lead to the six neighbours depends on the parity of the
** cell's row, "r" layouts, or column, "q" layouts: two tables), the hex
** metric, line of sight by the guide's cube-coordinate line drawing (for
** one cell and for a unit), the clearance of hexagonal units, and its
** topology operations, whose expansions are lattice.h's template
** instantiated once per mode.
**
** Directions 0..5 are the axial directions of the guide, counter-clockwise
** from east (q, r): (+1, 0), (+1, -1), (0, -1), (-1, 0), (-1, +1), (0, +1);
** the opposite of d is (d + 3) % 6.  A unit of size k covers the hexagon of
** cells within k - 1 steps of its cell.
*/
#include <math.h>
#include <string.h>

#include "lattice.h"

#define HEX_SQRT3_2 0.86602540378443864676 /* sqrt(3) / 2 */

static const int axial_dq[6] = {1, 1, 0, -1, -1, 0};
static const int axial_dr[6] = {0, -1, -1, 0, 1, 1};

static const lat_shape hexs;

/* "q" layouts: columns are shoved, parity by column. */
ASTAR_INLINE int columns(const astar_grid *gr) { return gr->par_x != 0; }

/* ------------------------------------------------------------------------ */
/* coordinates                                                                */
/* ------------------------------------------------------------------------ */

/* The guide's offset <-> axial conversions (0-based; & 1 is the parity of
** negative numbers too, in two's complement). */
static void to_axial(int layout, int32_t x, int32_t y, int32_t *q, int32_t *r) {
  switch (layout) {
    case ASTAR_HEX_ODD_R:
      *q = x - (y - (y & 1)) / 2;
      *r = y;
      break;
    case ASTAR_HEX_EVEN_R:
      *q = x - (y + (y & 1)) / 2;
      *r = y;
      break;
    case ASTAR_HEX_ODD_Q:
      *q = x;
      *r = y - (x - (x & 1)) / 2;
      break;
    default:
      *q = x;
      *r = y - (x + (x & 1)) / 2;
      break;
  }
}

static void to_offset(int layout, int32_t q, int32_t r, int32_t *x, int32_t *y) {
  switch (layout) {
    case ASTAR_HEX_ODD_R:
      *x = q + (r - (r & 1)) / 2;
      *y = r;
      break;
    case ASTAR_HEX_EVEN_R:
      *x = q + (r + (r & 1)) / 2;
      *y = r;
      break;
    case ASTAR_HEX_ODD_Q:
      *x = q;
      *y = r + (q - (q & 1)) / 2;
      break;
    default:
      *x = q;
      *y = r + (q + (q & 1)) / 2;
      break;
  }
}

void astar_hex_axial(int layout, int32_t x, int32_t y, int32_t *q, int32_t *r) {
  to_axial(layout, x, y, q, r);
}

static int32_t axial_distance(int32_t dq, int32_t dr) {
  int32_t a = dq < 0 ? -dq : dq, b = dr < 0 ? -dr : dr, c = dq + dr;
  if (c < 0) c = -c;
  return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

void astar_hex_center(int layout, int32_t x, int32_t y, double *cx, double *cy) {
  int32_t q, r;
  to_axial(layout, x, y, &q, &r);
  if (layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_EVEN_R) {
    *cx = q + 0.5 * r;
    *cy = HEX_SQRT3_2 * r;
  } else {
    *cx = HEX_SQRT3_2 * q;
    *cy = r + 0.5 * q;
  }
}

/* The guide's cube rounding of the fractional axial point (fq, fr). */
static void cube_round(double fq, double fr, int32_t *q, int32_t *r) {
  double fs = -fq - fr;
  double rq = floor(fq + 0.5), rr = floor(fr + 0.5), rs = floor(fs + 0.5);
  double dq = fabs(rq - fq), dr = fabs(rr - fr), ds = fabs(rs - fs);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  *q = (int32_t)rq;
  *r = (int32_t)rr;
}

int astar_hex_cell_at(const astar_grid *gr, double px, double py, int32_t *x, int32_t *y) {
  double fq, fr;
  int32_t q, r;
  if (gr->shape != &hexs || !isfinite(px) || !isfinite(py)) return 0;
  if (columns(gr)) {
    fq = px / HEX_SQRT3_2;
    fr = py - 0.5 * fq;
  } else {
    fr = py / HEX_SQRT3_2;
    fq = px - 0.5 * fr;
  }
  /* far outside: no int32 conversion of huge values */
  if (fabs(fq) > 4.0 * ASTAR_GRID_MAX_SIDE || fabs(fr) > 4.0 * ASTAR_GRID_MAX_SIDE) return 0;
  cube_round(fq, fr, &q, &r);
  to_offset(gr->layout, q, r, x, y);
  return LAT_INSIDE(gr, *x, *y);
}

int32_t astar_hex_distance(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1,
                           int32_t y1) {
  int32_t q0, r0, q1, r1;
  if (gr->shape != &hexs || !LAT_INSIDE(gr, x0, y0) || !LAT_INSIDE(gr, x1, y1)) return -1;
  to_axial(gr->layout, x0, y0, &q0, &r0);
  to_axial(gr->layout, x1, y1, &q1, &r1);
  return axial_distance(q1 - q0, r1 - r0);
}

/* ------------------------------------------------------------------------ */
/* line of sight                                                              */
/* ------------------------------------------------------------------------ */

/* floor(a / b), b > 0 */
static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return a % b != 0 && a < 0 ? q - 1 : q;
}

/*
** The guide's line drawing, exactly.  The point i/n of the way from axial
** (q0, r0) to (q1, r1), n their hex distance, is (a (n - i) + b i) / n:
** integer numerators over n, the same from either end.  The cube
** coordinate (q, r or s = -q - r) whose difference is largest moves by one
** a step, so it is an integer at every point, and the point lies inside one
** cell, or, where the other two are halves, on the edge between two (never
** on a corner: there all three would be fractions).  The cells, in (qa, ra)
** and (qb, rb); returns how many: 1 inside a cell, 2 on an edge.  Integer
** arithmetic: no rounding decides an edge (an earlier nudge along
** (1, 1, -2) ran along the edges between cells (1, -1) apart, and found
** one cell there: fuzz/fuzz_core's exact oracle saw it).
*/
static int sample_cells(int32_t q0, int32_t r0, int32_t q1, int32_t r1, int32_t n, int32_t i,
                        int32_t *qa, int32_t *ra, int32_t *qb, int32_t *rb) {
  int64_t nq = (int64_t)q0 * (n - i) + (int64_t)q1 * i;
  int64_t nr = (int64_t)r0 * (n - i) + (int64_t)r1 * i, ns = -nq - nr;
  int64_t fixed, frac, lo;
  int which; /* the fractional coordinate: 0 q (r follows), 1 r (q fixed), 2 q (r fixed) */
  if (ns % n == 0) {
    which = 0;
    fixed = ns / n;
    frac = nq;
  } else if (nq % n == 0) {
    which = 1;
    fixed = nq / n;
    frac = nr;
  } else {
    which = 2;
    fixed = nr / n;
    frac = nq;
  }
  if (frac % n == 0 || (2 * frac - n) % (2 * n) != 0) { /* inside a cell */
    int64_t f = floor_div(2 * frac + n, 2 * n);
    *qa = (int32_t)(which == 1 ? fixed : f);
    *ra = (int32_t)(which == 0 ? -fixed - f : which == 1 ? f
                                                         : fixed);
    return 1;
  }
  lo = floor_div(frac, n); /* on an edge: the fraction is a half */
  *qa = (int32_t)(which == 1 ? fixed : lo);
  *ra = (int32_t)(which == 0 ? -fixed - lo : which == 1 ? lo
                                                        : fixed);
  *qb = (int32_t)(which == 1 ? fixed : lo + 1);
  *rb = (int32_t)(which == 0 ? -fixed - lo - 1 : which == 1 ? lo + 1
                                                            : fixed);
  return 2;
}

/* Cell (q, r) (axial) is inside the grid and open; cells beside the grid
** are the blocked border. */
ASTAR_INLINE int open_at(const astar_grid *gr, int32_t q, int32_t r) {
  int32_t x, y;
  to_offset(gr->layout, q, r, &x, &y);
  return LAT_INSIDE(gr, x, y) && !gr->blocked[LAT_CELL(gr, x, y)];
}

/* The line's cells (sample_cells) open, the end cells included; where the
** line runs along an edge it is blocked only when both cells are. */
static int hex_sight(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t q0, r0, q1, r1, n, i;
  if (gr->blocked[LAT_CELL(gr, x0, y0)] || gr->blocked[LAT_CELL(gr, x1, y1)]) return 0;
  to_axial(gr->layout, x0, y0, &q0, &r0);
  to_axial(gr->layout, x1, y1, &q1, &r1);
  n = axial_distance(q1 - q0, r1 - r0);
  for (i = 1; i < n; i++) {
    int32_t qa, ra, qb = 0, rb = 0;
    int cells = sample_cells(q0, r0, q1, r1, n, i, &qa, &ra, &qb, &rb);
    if (!open_at(gr, qa, ra) && !(cells == 2 && open_at(gr, qb, rb))) return 0;
  }
  return 1;
}

/* The clearance of cell (x, y) of the padded array or beyond: 0 outside
** the grid (blocked, as its border). */
ASTAR_INLINE unsigned clear_of(const astar_grid *gr, int32_t x, int32_t y) {
  return LAT_INSIDE(gr, x, y) ? gr->clear[LAT_CELL(gr, x, y)] : 0u;
}

/*
** hex_sight for a unit of size k > 1 (clearance built).  The unit's cells
** walk the same line shifted by their axial offset from its cell, and the
** sample points and their cells shift with them (integer numerators:
** exact), so the unit passes a sample when, for every offset, one of the
** shifted cells there is open.  That holds at once where a cell there fits
** the whole unit (clearance >= k, one read); where none does on an edge,
** the offsets are compared one by one.
*/
static int hex_sight_unit(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                          int32_t k) {
  int32_t q0, r0, q1, r1, n, i;
  if (clear_of(gr, x0, y0) < (unsigned)k || clear_of(gr, x1, y1) < (unsigned)k) return 0;
  to_axial(gr->layout, x0, y0, &q0, &r0);
  to_axial(gr->layout, x1, y1, &q1, &r1);
  n = axial_distance(q1 - q0, r1 - r0);
  for (i = 1; i < n; i++) {
    int32_t qa, ra, qb = 0, rb = 0, x, y, dq, dr;
    int cells = sample_cells(q0, r0, q1, r1, n, i, &qa, &ra, &qb, &rb);
    to_offset(gr->layout, qa, ra, &x, &y);
    if (clear_of(gr, x, y) >= (unsigned)k) continue;
    if (cells == 1) return 0;
    to_offset(gr->layout, qb, rb, &x, &y);
    if (clear_of(gr, x, y) >= (unsigned)k) continue;
    for (dq = 1 - k; dq < k; dq++)
      for (dr = 1 - k; dr < k; dr++) {
        if (dq + dr >= k || dq + dr <= -k) continue;
        if (!open_at(gr, qa + dq, ra + dr) && !open_at(gr, qb + dq, rb + dr)) return 0;
      }
  }
  return 1;
}

/* Within `radius` steps (visible_from). */
static int hex_in_radius(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x, int32_t y,
                         double radius) {
  return astar_hex_distance(gr, x0, y0, x, y) <= (int32_t)radius;
}

/* ------------------------------------------------------------------------ */
/* units: hexagons                                                            */
/* ------------------------------------------------------------------------ */

/*
** The clearance of a cell is its distance in steps to the nearest blocked
** cell (the border counts: every way out of the grid crosses it), capped
** at ASTAR_MAX_UNIT: the unit of size k fits there exactly when every cell
** within k - 1 steps is open, that is when the clearance is at least k.
** Built by a breadth-first search from the cells beside a blocked one; the
** search never leaves the padded array (a shortest way between two cells
** of it stays inside).  The queue is the grid's scratch, freed after.
*/
#define CLEAR_CAP ASTAR_MAX_UNIT

static int hex_clear_build(astar_grid *gr) {
  size_t n = (size_t)gr->pw * (size_t)gr->ph, head = 0, tail = 0;
  int32_t x, y, *queue;
  if (gr->clear != NULL) return ASTAR_OK;
  if (astar__resize(gr->t.alloc, gr->t.ud, (void **)&gr->scratch, &gr->scratch_cap,
                    (size_t)gr->w * (size_t)gr->h, sizeof(int32_t)))
    return ASTAR_ENOMEM;
  gr->clear = (unsigned char *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n);
  if (gr->clear == NULL) {
    astar__release(gr->t.alloc, gr->t.ud, (void **)&gr->scratch, &gr->scratch_cap,
                   sizeof(int32_t));
    return ASTAR_ENOMEM;
  }
  queue = gr->scratch;
  memset(gr->clear, 0, n);
  for (y = 0; y < gr->h; y++)
    for (x = 0; x < gr->w; x++) {
      int32_t p = LAT_CELL(gr, x, y);
      int par = lat_par(gr, x, y), d, edge = 0;
      if (gr->blocked[p]) continue;
      for (d = 0; d < 6; d++) edge |= gr->blocked[p + gr->off[par][d]];
      gr->clear[p] = edge ? 1 : CLEAR_CAP;
      if (edge) queue[tail++] = p;
    }
  while (head < tail) {
    int32_t u = queue[head++];
    int par = lat_par_of(gr, u), d;
    unsigned next = gr->clear[u] + 1u;
    if (next >= CLEAR_CAP) continue;
    for (d = 0; d < 6; d++) {
      int32_t v = u + gr->off[par][d];
      if (gr->clear[v] > next) {
        gr->clear[v] = (unsigned char)next;
        queue[tail++] = v;
      }
    }
  }
  astar__release(gr->t.alloc, gr->t.ud, (void **)&gr->scratch, &gr->scratch_cap, sizeof(int32_t));
  return ASTAR_OK;
}

/* Makes room for n entries of the update's scratch; on failure the layer is
** dropped (the next use builds it again, and reports ENOMEM there). */
static int32_t *scratch(astar_grid *gr, size_t n) {
  if (gr->scratch_cap >= n ||
      !astar__grow(gr->t.alloc, gr->t.ud, (void **)&gr->scratch, &gr->scratch_cap, n,
                   sizeof(int32_t)))
    return gr->scratch;
  astar__mem(gr->t.alloc, gr->t.ud, gr->clear, (size_t)gr->pw * (size_t)gr->ph, 0);
  gr->clear = NULL;
  return NULL;
}

/* The least clearance open cell p gets from its neighbours outside the
** region being recomputed (marked 0 while open): 1 beside a blocked cell,
** else one more than the least of them, capped; 0 when every neighbour is
** in the region. */
static unsigned hex_clear_seed(const astar_grid *gr, int32_t p) {
  int par = lat_par_of(gr, p), d;
  unsigned best = 0;
  for (d = 0; d < 6; d++) {
    int32_t v = p + gr->off[par][d];
    unsigned c = gr->clear[v];
    if (gr->blocked[v]) return 1;
    if (c != 0 && (best == 0 || c + 1u < best)) best = c + 1u;
  }
  return best > CLEAR_CAP ? CLEAR_CAP : best;
}

/* The blocked bit of padded cell b was set: clearances can only fall, each
** to one more than a neighbour's; a breadth-first wave from b while they
** fall. */
static void hex_clear_fall(astar_grid *gr, int32_t b) {
  size_t head = 0, tail = 0;
  int32_t *q;
  gr->clear[b] = 0;
  if ((q = scratch(gr, 1)) == NULL) return;
  q[tail++] = b;
  while (head < tail) {
    int32_t u = gr->scratch[head++];
    int par = lat_par_of(gr, u), d;
    unsigned next = gr->clear[u] + 1u;
    for (d = 0; d < 6; d++) {
      int32_t v = u + gr->off[par][d];
      if (gr->clear[v] <= next) continue;
      if ((q = scratch(gr, tail + 1)) == NULL) return;
      gr->clear[v] = (unsigned char)next;
      q[tail++] = v;
    }
  }
}

/*
** Padded cell b was opened.  The cells whose nearest blocked cell was b
** are exactly those reached from b by steps that each raise the clearance
** by one (along a shortest way from b, clearance can neither rise faster
** nor, for such a cell, slower), and only their clearance changes.  Found
** in layers of old clearance 0 (b), 1, 2, ... and marked 0 as they are
** found; then seeded from their neighbours outside the region and settled
** in increasing order: a merge of the seeds, sorted by value, with the
** breadth-first wave they start.  Scratch layout for a region of m cells:
** [0, m) the region, [m, 3m) the sorted seeds (cell, value), [3m, 15m)
** the wave (cell, value; at most 6 per settled cell).
*/
static void hex_clear_rise(astar_grid *gr, int32_t b) {
  size_t count[CLEAR_CAP + 2], tail = 1, layer_end = 1, m, i, ns = 0, si = 0, qh = 0, qt = 0;
  unsigned layer = 0, v;
  int32_t *q, *seeds, *wave;
  if ((q = scratch(gr, 1)) == NULL) return;
  q[0] = b;
  gr->clear[b] = 0;
  for (i = 0; i < tail; i++) {
    int32_t u = gr->scratch[i];
    int par = lat_par_of(gr, u), d;
    if (i == layer_end) {
      layer++;
      layer_end = tail;
    }
    if (layer + 1u >= CLEAR_CAP) continue; /* capped cells stay capped */
    for (d = 0; d < 6; d++) {
      int32_t nb = u + gr->off[par][d];
      if (gr->blocked[nb] || gr->clear[nb] != layer + 1u) continue;
      if ((q = scratch(gr, tail + 1)) == NULL) return;
      gr->clear[nb] = 0;
      q[tail++] = nb;
    }
  }
  m = tail;
  if ((q = scratch(gr, 15 * m)) == NULL) return;
  seeds = q + m;
  wave = q + 3 * m;
  /* the seeds, sorted by value (a counting sort: values 1..CLEAR_CAP) */
  memset(count, 0, sizeof count);
  for (i = 0; i < m; i++) count[hex_clear_seed(gr, q[i])]++;
  for (v = 1; v <= CLEAR_CAP; v++) {
    size_t c = count[v];
    count[v] = ns;
    ns += c;
  }
  for (i = 0; i < m; i++) {
    size_t at;
    if ((v = hex_clear_seed(gr, q[i])) == 0) continue;
    at = count[v]++;
    seeds[2 * at] = q[i];
    seeds[2 * at + 1] = (int32_t)v;
  }
  while (si < ns || qh < qt) {
    int32_t u;
    unsigned next;
    int par, d;
    if (qh < qt && (si == ns || wave[2 * qh + 1] <= seeds[2 * si + 1])) {
      u = wave[2 * qh];
      v = (unsigned)wave[2 * qh++ + 1];
    } else {
      u = seeds[2 * si];
      v = (unsigned)seeds[2 * si++ + 1];
    }
    if (gr->clear[u] != 0) continue; /* settled already, lower */
    gr->clear[u] = (unsigned char)v;
    next = v >= CLEAR_CAP ? CLEAR_CAP : v + 1u;
    par = lat_par_of(gr, u);
    for (d = 0; d < 6; d++) {
      int32_t w = u + gr->off[par][d];
      if (gr->blocked[w] || gr->clear[w] != 0) continue;
      wave[2 * qt] = w;
      wave[2 * qt++ + 1] = (int32_t)next;
    }
  }
}

/* The scratch an update needs is what the change reached: small for most
** edits, which keep it; a large one (an opening far from any wall) is given
** back at once rather than held for the grid's lifetime. */
#define SCRATCH_KEEP 65536

static void hex_clear_update(astar_grid *gr, int32_t x, int32_t y) {
  int32_t b = LAT_CELL(gr, x, y);
  if (gr->blocked[b]) hex_clear_fall(gr, b);
  else hex_clear_rise(gr, b);
  if (gr->scratch_cap > SCRATCH_KEEP)
    astar__release(gr->t.alloc, gr->t.ud, (void **)&gr->scratch, &gr->scratch_cap,
                   sizeof(int32_t));
}

/* The cells of the hexagon of radius k - 1 at a cell of parity `par`, the
** cell itself first. */
static int32_t hex_unit_cells(const astar_grid *gr, int32_t k, int par, int32_t *pad,
                              int32_t *ext) {
  int32_t cx = 2 * k + (columns(gr) ? par : 0), cy = 2 * k + (columns(gr) ? 0 : par);
  int32_t q0, r0, dq, dr, n = 1;
  to_axial(gr->layout, cx, cy, &q0, &r0);
  pad[0] = ext[0] = 0;
  for (dq = 1 - k; dq < k; dq++)
    for (dr = 1 - k; dr < k; dr++) {
      int32_t x, y;
      if (dq + dr >= k || dq + dr <= -k || (dq == 0 && dr == 0)) continue;
      to_offset(gr->layout, q0 + dq, r0 + dr, &x, &y);
      pad[n] = (y - cy) * gr->pw + (x - cx);
      ext[n++] = (y - cy) * gr->w + (x - cx);
    }
  return n;
}

static int32_t hex_unit_count(int32_t k) { return 3 * k * (k - 1) + 1; }

static int hex_in_unit(const astar_grid *gr, int32_t x, int32_t y, int32_t k, int32_t cx,
                       int32_t cy) {
  int32_t q0, r0, q, r;
  to_axial(gr->layout, x, y, &q0, &r0);
  to_axial(gr->layout, cx, cy, &q, &r);
  return axial_distance(q - q0, r - r0) < k;
}

/* ------------------------------------------------------------------------ */
/* the shape                                                                  */
/* ------------------------------------------------------------------------ */

astar_grid *astar_hex_new(int32_t width, int32_t height, int layout, astar_alloc_fn alloc,
                          void *ud) {
  lat_geometry geo;
  int par, d;
  if (width < 1 || height < 1 || width > ASTAR_GRID_MAX_SIDE ||
      height > ASTAR_GRID_MAX_SIDE || (int64_t)width * height >= (1 << 30))
    return NULL;
  if (layout < ASTAR_HEX_ODD_R || layout > ASTAR_HEX_EVEN_Q) return NULL;
  memset(&geo, 0, sizeof geo);
  geo.ndir = 6;
  geo.par_x = layout == ASTAR_HEX_ODD_Q || layout == ASTAR_HEX_EVEN_Q;
  geo.par_y = !geo.par_x;
  /* the neighbour steps of a cell of each parity, from the axial
  ** directions (a cell at (2, 2 + par) or (2 + par, 2) has that parity) */
  for (par = 0; par < 2; par++)
    for (d = 0; d < 6; d++) {
      int32_t x0 = geo.par_x ? 2 + par : 2, y0 = geo.par_x ? 2 : 2 + par, q, r, x1, y1;
      to_axial(layout, x0, y0, &q, &r);
      to_offset(layout, q + axial_dq[d], r + axial_dr[d], &x1, &y1);
      geo.ddx[par][d] = (signed char)(x1 - x0);
      geo.ddy[par][d] = (signed char)(y1 - y0);
    }
  geo.straight = 0x3fu; /* no diagonal rule: every step needs its target */
  geo.rule = -1;
  geo.layout = layout;
  return astar__lat_new(&hexs, &geo, width, height, alloc, ud);
}

int astar_hex_layout(const astar_grid *gr) {
  return gr->shape == &hexs ? gr->layout : ASTAR_EINVAL;
}

/* ------------------------------------------------------------------------ */
/* the metric and the modes                                                   */
/* ------------------------------------------------------------------------ */

/* The goal's axial coordinates, from its centre (astar_hex_center's
** inverse; the rounding makes it exact). */
ASTAR_INLINE void goal_axial(const astar_search *s, int columns, double *gq, double *gr) {
  if (columns) {
    *gq = floor(s->gx / HEX_SQRT3_2 + 0.5);
    *gr = floor(s->gy - 0.5 * *gq + 0.5);
  } else {
    *gr = floor(s->gy / HEX_SQRT3_2 + 0.5);
    *gq = floor(s->gx - 0.5 * *gr + 0.5);
  }
}

/* The built-in estimate at the cell of axial coordinates (q, r).  On the
** hex's positions (centres one step apart) Euclidean is sqrt(dq^2 + dq dr
** + dr^2) whatever the orientation; the bisectors use the centres. */
ASTAR_INLINE double hex_h(const astar_search *s, int32_t v, double q, double r) {
  const astar_grid *g = (const astar_grid *)s->topo;
  double gq, gr, dq, dr, ds;
  (void)v;
  if (s->q.heuristic == ASTAR_H_ZERO) return 0.0;
  goal_axial(s, columns(g), &gq, &gr);
  dq = q - gq;
  dr = r - gr;
  switch (s->q.heuristic) {
    case ASTAR_H_HEX:
      ds = fabs(dq + dr);
      dq = fabs(dq);
      dr = fabs(dr);
      return dq > dr ? (dq > ds ? dq : ds) : (dr > ds ? dr : ds);
    case ASTAR_H_EUCLIDEAN: return sqrt(dq * dq + dq * dr + dr * dr);
    default:
      return columns(g) ? builtin_h(s, HEX_SQRT3_2 * q, r + 0.5 * q, 0.0)
                        : builtin_h(s, q + 0.5 * r, HEX_SQRT3_2 * r, 0.0);
  }
}

/* Where an expansion of padded cell p starts: its parity, external id and
** axial coordinates (the metric's). */
ASTAR_INLINE lat_at hex_locate(const astar_grid *gr, int32_t p) {
  lat_at a;
  int32_t py = lat_row(gr, p), x = p - py * gr->pw - 1, y = py - 1, q, r;
  a.par = lat_par(gr, x, y);
  a.up = y * gr->w + x;
  to_axial(gr->layout, x, y, &q, &r);
  a.mx = q;
  a.my = r;
  return a;
}

/* Every step is 1 long. */
ASTAR_INLINE double hex_len(int d) {
  (void)d;
  return 1.0;
}

LAT_MODES(hex, hexs, hex_locate, hex_len, hex_h)

/* The centre, neighbours one apart (astar_hex_center). */
static void hex_position(const astar_topology *t, int32_t p, double xyz[3]) {
  const astar_grid *gr = (const astar_grid *)t;
  int32_t y = lat_row(gr, p);
  astar_hex_center(gr->layout, p - y * gr->pw - 1, y - 1, &xyz[0], &xyz[1]);
  xyz[2] = 0;
}

/* Hex distance: it bounds a step (one) and is exact on open ground. */
static double hex_distance(const astar_topology *t, int32_t a, int32_t b) {
  const astar_grid *gr = (const astar_grid *)t;
  return astar_hex_distance(gr, a % gr->w, a / gr->w, b % gr->w, b / gr->w);
}

static double hex_estimate(const astar_search *s, int32_t p) {
  lat_at a = hex_locate((const astar_grid *)s->topo, p);
  return hex_h(s, p, a.mx, a.my);
}

static int hex_default_heuristic(const astar_topology *t) {
  (void)t;
  return ASTAR_H_HEX;
}

static const astar_topo_ops hex_ops = {
    .kind = "hex",
    .noun = "a hex grid",
    .abilities = ASTAR_CAN_CELLS | ASTAR_CAN_REPAIR,
    LAT_SHARED_OPS,
    .position = hex_position,
    .default_heuristic = hex_default_heuristic,
    /* the square metrics (manhattan, octile, chebyshev) overestimate a
    ** step between centres one apart, or mean nothing here */
    .heuristics = HEURISTIC_BIT(ASTAR_H_ZERO) | HEURISTIC_BIT(ASTAR_H_EUCLIDEAN) |
                  HEURISTIC_BIT(ASTAR_H_HEX) | HEURISTIC_BIT(ASTAR_H_BISECTOR) |
                  HEURISTIC_BIT(ASTAR_H_FULL_BISECTOR),
    .estimate = hex_estimate,
    .distance = hex_distance,
    .octile_k = ASTAR_SQRT2 - 1,
    .run = LAT_RUNS(hex),
};

static const lat_shape hexs = {
    .ops = &hex_ops,
    .opp = {3, 4, 5, 0, 1, 2},
    .len = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0},
    .mdx = {1, 1, 0, -1, -1, 0},
    .mdy = {0, -1, -1, 0, 1, 1},
    .sight = hex_sight,
    .sight_unit = hex_sight_unit,
    .in_radius = hex_in_radius,
    .clear_build = hex_clear_build,
    .clear_update = hex_clear_update,
    .unit_cells = hex_unit_cells,
    .unit_count = hex_unit_count,
    .in_unit = hex_in_unit,
};
