/*
** hex.c -- hex grid topology: cells in offset coordinates (the four layouts
** of the usual hex-grid guide), six neighbours a cell, line of sight by the
** guide's cube-coordinate line drawing, and the hex grid's topology
** operations.  Like grid.c, neighbours are generated from padded offsets.
**
** Cells are stored with a one-cell blocked border (pw = w + 2), so the
** loops never test bounds: every neighbour of an inside cell is at most one
** row and one column away.  External ids are y * w + x, internal ids padded
** indices (y + 1) * pw + (x + 1).  Which offsets lead to the six neighbours
** depends on the parity of the cell's row ("r" layouts) or column ("q"
** layouts), so there are two offset tables, chosen per expansion.
**
** Directions 0..5 are the axial directions of the guide, counter-clockwise
** from east (q, r): (+1, 0), (+1, -1), (0, -1), (-1, 0), (-1, +1), (0, +1);
** the opposite of d is (d + 3) % 6.  The search links nodes by direction.
*/
#include <math.h>
#include <string.h>

#include "engine.h"

#define HEX_SQRT3_2 0.86602540378443864676 /* sqrt(3) / 2 */

struct astar_hex {
  astar_topology t; /* first: the topology view */
  int32_t w, h, pw, ph;
  int layout;
  int columns;                  /* "q" layouts: parity by column */
  unsigned char *blocked;       /* pw * ph; 1 blocked (the border too) */
  double *cost;                 /* pw * ph or NULL while every cost is 1 */
  uint16_t *tag;                /* pw * ph or NULL while every tag is 0 */
  int32_t off[2][6];            /* padded offsets by parity and direction */
  int32_t ddx[2][6], ddy[2][6]; /* the same as column and row steps */
  double inv_pw;                /* 1 / pw: rows without a division */
};

#define HEX(t) ((astar_hex *)(t))
#define CHEX(t) ((const astar_hex *)(t))
#define CELL(hx, x, y) (((y) + 1) * (hx)->pw + (x) + 1)
#define INSIDE(hx, x, y) ((x) >= 0 && (y) >= 0 && (x) < (hx)->w && (y) < (hx)->h)

static const int axial_dq[6] = {1, 1, 0, -1, -1, 0};
static const int axial_dr[6] = {0, -1, -1, 0, 1, 1};

static const astar_topo_ops hex_ops;

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

int astar_hex_cell_at(const astar_hex *hx, double px, double py, int32_t *x, int32_t *y) {
  double fq, fr;
  int32_t q, r;
  if (!isfinite(px) || !isfinite(py)) return 0;
  if (hx->columns) {
    fq = px / HEX_SQRT3_2;
    fr = py - 0.5 * fq;
  } else {
    fr = py / HEX_SQRT3_2;
    fq = px - 0.5 * fr;
  }
  /* far outside: no int32 conversion of huge values */
  if (fabs(fq) > 4.0 * ASTAR_GRID_MAX_SIDE || fabs(fr) > 4.0 * ASTAR_GRID_MAX_SIDE) return 0;
  cube_round(fq, fr, &q, &r);
  to_offset(hx->layout, q, r, x, y);
  return INSIDE(hx, *x, *y);
}

/* ------------------------------------------------------------------------ */
/* storage                                                                    */
/* ------------------------------------------------------------------------ */

astar_hex *astar_hex_new(int32_t width, int32_t height, int layout, astar_alloc_fn alloc,
                         void *ud) {
  astar_hex *hx;
  size_t n;
  int32_t y;
  int par, d;
  if (width < 1 || height < 1 || width > ASTAR_GRID_MAX_SIDE ||
      height > ASTAR_GRID_MAX_SIDE || (int64_t)width * height >= (1 << 30))
    return NULL;
  if (layout < ASTAR_HEX_ODD_R || layout > ASTAR_HEX_EVEN_Q) return NULL;
  hx = (astar_hex *)astar__mem(alloc, ud, NULL, 0, sizeof *hx);
  if (hx == NULL) return NULL;
  memset(hx, 0, sizeof *hx);
  hx->t.ops = &hex_ops;
  hx->t.alloc = alloc;
  hx->t.ud = ud;
  hx->w = width;
  hx->h = height;
  hx->pw = width + 2;
  hx->ph = height + 2;
  hx->inv_pw = 1.0 / hx->pw;
  hx->layout = layout;
  hx->columns = layout == ASTAR_HEX_ODD_Q || layout == ASTAR_HEX_EVEN_Q;
  n = (size_t)hx->pw * (size_t)hx->ph;
  hx->blocked = (unsigned char *)astar__mem(alloc, ud, NULL, 0, n);
  if (hx->blocked == NULL) {
    astar__mem(alloc, ud, hx, sizeof *hx, 0);
    return NULL;
  }
  memset(hx->blocked, 1, n);
  for (y = 0; y < height; y++) memset(hx->blocked + CELL(hx, 0, y), 0, (size_t)width);
  /* the neighbour steps of a cell of each parity, from the axial
  ** directions (a cell at (2, 2 + par) or (2 + par, 2) has that parity) */
  for (par = 0; par < 2; par++)
    for (d = 0; d < 6; d++) {
      int32_t x0 = hx->columns ? 2 + par : 2, y0 = hx->columns ? 2 : 2 + par, q, r, x1, y1;
      to_axial(layout, x0, y0, &q, &r);
      to_offset(layout, q + axial_dq[d], r + axial_dr[d], &x1, &y1);
      hx->ddx[par][d] = x1 - x0;
      hx->ddy[par][d] = y1 - y0;
      hx->off[par][d] = (y1 - y0) * hx->pw + (x1 - x0);
    }
  return hx;
}

void astar_hex_free(astar_hex *hx) {
  size_t n;
  if (hx == NULL) return;
  n = (size_t)hx->pw * (size_t)hx->ph;
  astar__mem(hx->t.alloc, hx->t.ud, hx->blocked, n, 0);
  astar__mem(hx->t.alloc, hx->t.ud, hx->cost, hx->cost ? n * sizeof(double) : 0, 0);
  astar__mem(hx->t.alloc, hx->t.ud, hx->tag, hx->tag ? n * sizeof(uint16_t) : 0, 0);
  astar__comp_free(&hx->t);
  astar__mem(hx->t.alloc, hx->t.ud, hx, sizeof *hx, 0);
}

astar_topology *astar_hex_topology(astar_hex *hx) { return &hx->t; }
int32_t astar_hex_width(const astar_hex *hx) { return hx->w; }
int32_t astar_hex_height(const astar_hex *hx) { return hx->h; }
int astar_hex_layout(const astar_hex *hx) { return hx->layout; }

int astar_hex_set_blocked(astar_hex *hx, int32_t x, int32_t y, int blocked) {
  if (hx->t.lock > 0) return ASTAR_EBUSY;
  if (!INSIDE(hx, x, y)) return ASTAR_EINVAL;
  blocked = blocked ? 1 : 0;
  if (hx->blocked[CELL(hx, x, y)] != blocked) {
    hx->blocked[CELL(hx, x, y)] = (unsigned char)blocked;
    hx->t.version++;
  }
  return ASTAR_OK;
}

int astar_hex_blocked(const astar_hex *hx, int32_t x, int32_t y) {
  if (!INSIDE(hx, x, y)) return ASTAR_EINVAL;
  return hx->blocked[CELL(hx, x, y)];
}

int astar_hex_set_cost(astar_hex *hx, int32_t x, int32_t y, double cost) {
  if (hx->t.lock > 0) return ASTAR_EBUSY;
  if (!INSIDE(hx, x, y) || !(cost >= 0) || !isfinite(cost)) return ASTAR_EINVAL;
  if (hx->cost == NULL) {
    size_t i, n = (size_t)hx->pw * (size_t)hx->ph;
    if (cost == 1.0) return ASTAR_OK;
    hx->cost = (double *)astar__mem(hx->t.alloc, hx->t.ud, NULL, 0, n * sizeof(double));
    if (hx->cost == NULL) return ASTAR_ENOMEM;
    for (i = 0; i < n; i++) hx->cost[i] = 1.0;
  }
  if (hx->cost[CELL(hx, x, y)] != cost) {
    hx->cost[CELL(hx, x, y)] = cost;
    hx->t.version++;
    astar__comp_kept(&hx->t); /* costs do not cut components */
  }
  return ASTAR_OK;
}

int astar_hex_cost(const astar_hex *hx, int32_t x, int32_t y, double *cost) {
  if (!INSIDE(hx, x, y)) return ASTAR_EINVAL;
  *cost = hx->cost ? hx->cost[CELL(hx, x, y)] : 1.0;
  return ASTAR_OK;
}

int astar_hex_set_tag(astar_hex *hx, int32_t x, int32_t y, int32_t tag) {
  if (hx->t.lock > 0) return ASTAR_EBUSY;
  if (!INSIDE(hx, x, y) || tag < 0 || tag > 65535) return ASTAR_EINVAL;
  if (hx->tag == NULL) {
    size_t n = (size_t)hx->pw * (size_t)hx->ph;
    if (tag == 0) return ASTAR_OK;
    hx->tag = (uint16_t *)astar__mem(hx->t.alloc, hx->t.ud, NULL, 0, n * sizeof(uint16_t));
    if (hx->tag == NULL) return ASTAR_ENOMEM;
    memset(hx->tag, 0, n * sizeof(uint16_t));
  }
  if (hx->tag[CELL(hx, x, y)] != tag) {
    hx->tag[CELL(hx, x, y)] = (uint16_t)tag;
    hx->t.version++;
    astar__comp_kept(&hx->t);
  }
  return ASTAR_OK;
}

int astar_hex_tag(const astar_hex *hx, int32_t x, int32_t y, int32_t *tag) {
  if (!INSIDE(hx, x, y)) return ASTAR_EINVAL;
  *tag = hx->tag ? hx->tag[CELL(hx, x, y)] : 0;
  return ASTAR_OK;
}

/* The parity that picks a cell's offset table. */
ASTAR_INLINE int parity(const astar_hex *hx, int32_t x, int32_t y) {
  return (int)((hx->columns ? x : y) & 1);
}

int astar_hex_neighbours(const astar_hex *hx, int32_t x, int32_t y, int32_t xy[12]) {
  int par, d, n = 0;
  if (!INSIDE(hx, x, y)) return ASTAR_EINVAL;
  par = parity(hx, x, y);
  for (d = 0; d < 6; d++) {
    int32_t nx = x + hx->ddx[par][d], ny = y + hx->ddy[par][d];
    if (!INSIDE(hx, nx, ny)) continue;
    xy[2 * n] = nx;
    xy[2 * n + 1] = ny;
    n++;
  }
  return n;
}

int32_t astar_hex_distance(const astar_hex *hx, int32_t x0, int32_t y0, int32_t x1,
                           int32_t y1) {
  int32_t q0, r0, q1, r1;
  if (!INSIDE(hx, x0, y0) || !INSIDE(hx, x1, y1)) return -1;
  to_axial(hx->layout, x0, y0, &q0, &r0);
  to_axial(hx->layout, x1, y1, &q1, &r1);
  return axial_distance(q1 - q0, r1 - r0);
}

/* ------------------------------------------------------------------------ */
/* line of sight                                                              */
/* ------------------------------------------------------------------------ */

/*
** The guide's line drawing, with exact sample points: the point i/n of the
** way is (a (n - i) + b i) / n in axial coordinates, and the numerators are
** integers, so the walk from b to a computes the same points (the sums
** commute).  Each point is rounded twice, nudged by +e and -e along
** (1, 1, -2) (e = 1 / 8n: far below the 1/n spacing of the points, so only
** exact ties move): where the point is inside a cell both roundings agree;
** on an edge they give the two cells beside it, and the line is blocked
** there only when both are.  Cells beside the grid are the blocked border.
*/
static int hex_sight(const astar_hex *hx, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t q0, r0, q1, r1, n, i;
  double e;
  if (hx->blocked[CELL(hx, x0, y0)] || hx->blocked[CELL(hx, x1, y1)]) return 0;
  to_axial(hx->layout, x0, y0, &q0, &r0);
  to_axial(hx->layout, x1, y1, &q1, &r1);
  n = axial_distance(q1 - q0, r1 - r0);
  e = 1.0 / (8.0 * (n > 0 ? n : 1));
  for (i = 1; i < n; i++) {
    double nq = (double)q0 * (n - i) + (double)q1 * i, nr = (double)r0 * (n - i) + (double)r1 * i;
    int k, open = 0;
    for (k = -1; k <= 1 && !open; k += 2) {
      int32_t q, r, x, y;
      cube_round(nq / n + k * e, nr / n + k * e, &q, &r);
      to_offset(hx->layout, q, r, &x, &y);
      /* a rounding can land beside the grid (a line along its edge): the
      ** border, blocked; never further */
      if (x >= -1 && y >= -1 && x <= hx->w && y <= hx->h && !hx->blocked[CELL(hx, x, y)])
        open = 1;
    }
    if (!open) return 0;
  }
  return 1;
}

int astar_hex_line_of_sight(const astar_hex *hx, int32_t x0, int32_t y0, int32_t x1,
                            int32_t y1) {
  if (!INSIDE(hx, x0, y0) || !INSIDE(hx, x1, y1)) return ASTAR_EINVAL;
  return hex_sight(hx, x0, y0, x1, y1);
}

int astar_hex_visible_from(const astar_hex *hx, int32_t x, int32_t y, double radius,
                           double *out) {
  int32_t x0 = 0, y0 = 0, x1 = hx->w - 1, y1 = hx->h - 1, cx, cy, r = -1;
  if (!INSIDE(hx, x, y) || isnan(radius)) return ASTAR_EINVAL;
  memset(out, 0, (size_t)hx->w * (size_t)hx->h * sizeof(double));
  if (radius >= 0 && radius < 4.0 * ASTAR_GRID_MAX_SIDE) {
    r = (int32_t)radius;
    /* a cell r steps away is at most r columns and r rows off */
    if (x - r > x0) x0 = x - r;
    if (y - r > y0) y0 = y - r;
    if (x + r < x1) x1 = x + r;
    if (y + r < y1) y1 = y + r;
  }
  if (hx->blocked[CELL(hx, x, y)]) return ASTAR_OK;
  for (cy = y0; cy <= y1; cy++)
    for (cx = x0; cx <= x1; cx++) {
      if (r >= 0 && astar_hex_distance(hx, x, y, cx, cy) > r) continue;
      if (hex_sight(hx, x, y, cx, cy)) out[(size_t)cy * (size_t)hx->w + (size_t)cx] = 1.0;
    }
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* expansions                                                                 */
/* ------------------------------------------------------------------------ */

/* Row of a padded index without a division (see grid.c: grid_row). */
ASTAR_INLINE int32_t hex_row(const astar_hex *hx, int32_t p) {
  int32_t pw = hx->pw, y = (int32_t)((double)p * hx->inv_pw);
  if ((y + 1) * pw <= p) y++;
  else if (y * pw > p) y--;
  return y;
}

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
  const astar_hex *hx = CHEX(s->topo);
  double gq, gr, dq, dr, ds;
  (void)v;
  if (s->q.heuristic == ASTAR_H_ZERO) return 0.0;
  goal_axial(s, hx->columns, &gq, &gr);
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
      return hx->columns ? builtin_h(s, HEX_SQRT3_2 * q, r + 0.5 * q, 0.0)
                         : builtin_h(s, q + 0.5 * r, HEX_SQRT3_2 * r, 0.0);
  }
}

/* Where an expansion of padded cell p starts: its parity, external id and
** axial coordinates. */
typedef struct hex_at {
  int par;
  int32_t up;
  double q, r;
} hex_at;

ASTAR_INLINE hex_at hex_locate(const astar_hex *hx, int32_t p) {
  hex_at a;
  int32_t py = hex_row(hx, p), x = p - py * hx->pw - 1, y = py - 1, q, r;
  a.par = parity(hx, x, y);
  a.up = y * hx->w + x;
  to_axial(hx->layout, x, y, &q, &r);
  a.q = q;
  a.r = r;
  return a;
}

/* Every direction but the one back to p's parent (see grid.c: back_mask). */
ASTAR_INLINE int back_dir(const astar_search *s, int32_t p) {
  int32_t d = *parent_at(s, p);
  return d < 0 ? -1 : (int)((d + 3) % 6);
}

/* The general case: cell costs, tag factors, penalty and forbid fields, a
** cost callback, budgets. */
static int expand_hex(astar_search *s, int32_t p) {
  const astar_hex *hx = CHEX(s->topo);
  hex_at a = hex_locate(hx, p);
  double gp = node_at(s, p)->g;
  int d, back = back_dir(s, p), rc;
  for (d = 0; d < 6; d++) {
    int32_t q = p + hx->off[a.par][d];
    int32_t uq = a.up + hx->ddx[a.par][d] + hx->ddy[a.par][d] * hx->w;
    double c;
    if (d == back || hx->blocked[q]) continue;
    c = hx->cost ? hx->cost[q] : 1.0;
    if ((rc = query_step(s, a.up, uq, d, hx->tag ? hx->tag[q] : 0, &c, 1)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    rc = relax_impl(s, q, uq, d, gp + c, c, a.q + axial_dq[d], a.r + axial_dr[d], 0, hex_h);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* Reverse expansion: each open neighbour a offers the step a -> p (the
** cost of entering p); a's link is that step's direction. */
static int expand_hex_rev(astar_search *s, int32_t p) {
  const astar_hex *hx = CHEX(s->topo);
  hex_at at = hex_locate(hx, p);
  double gp = node_at(s, p)->g;
  int d, rc;
  for (d = 0; d < 6; d++) {
    int32_t a = p + hx->off[at.par][d];
    int32_t ua = at.up + hx->ddx[at.par][d] + hx->ddy[at.par][d] * hx->w;
    int back = (d + 3) % 6;
    double c;
    if (hx->blocked[a] || (s->q.forbid && s->q.forbid[ua] != 0)) continue;
    c = hx->cost ? hx->cost[p] : 1.0;
    if ((rc = query_step(s, ua, at.up, back, hx->tag ? hx->tag[p] : 0, &c, 1)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    rc = relax_impl(s, a, ua, back, gp + c, c, at.q + axial_dq[d], at.r + axial_dr[d], 0,
                    hex_h);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* The fast path: no cost layer, no modifiers: every step costs 1. */
ASTAR_INLINE int expand_hex_plain(astar_search *s, int32_t p) {
  const astar_hex *hx = CHEX(s->topo);
  hex_at a = hex_locate(hx, p);
  double gp = node_at(s, p)->g + 1.0;
  int d, back = back_dir(s, p), rc;
  for (d = 0; d < 6; d++) {
    int32_t q = p + hx->off[a.par][d];
    if (d == back || hx->blocked[q]) continue;
    rc = relax_impl(s, q, 0, d, gp, 0, a.q + axial_dq[d], a.r + axial_dr[d], 1, hex_h);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

static int hex_run(astar_search *s, uint64_t n) { return search_loop(s, n, expand_hex); }
static int hex_run_plain(astar_search *s, uint64_t n) {
  return search_loop(s, n, expand_hex_plain);
}
static int hex_run_reverse(astar_search *s, uint64_t n) {
  return search_loop(s, n, expand_hex_rev);
}

/* ------------------------------------------------------------------------ */
/* topology operations                                                        */
/* ------------------------------------------------------------------------ */

static int32_t hex_count(const astar_topology *t) { return CHEX(t)->w * CHEX(t)->h; }
static size_t hex_span(const astar_topology *t) {
  return (size_t)CHEX(t)->pw * (size_t)CHEX(t)->ph;
}

static int32_t hex_internal(const astar_topology *t, int32_t c) {
  const astar_hex *hx = CHEX(t);
  return (c / hx->w + 1) * hx->pw + c % hx->w + 1;
}

static int32_t hex_external(const astar_topology *t, int32_t p) {
  const astar_hex *hx = CHEX(t);
  int32_t y = hex_row(hx, p);
  return (y - 1) * hx->w + (p - y * hx->pw - 1);
}

static int hex_passable(const astar_topology *t, int32_t p) { return !CHEX(t)->blocked[p]; }

/* The centre, neighbours one apart (astar_hex_center). */
static void hex_position(const astar_topology *t, int32_t p, double xyz[3]) {
  const astar_hex *hx = CHEX(t);
  int32_t y = hex_row(hx, p);
  astar_hex_center(hx->layout, p - y * hx->pw - 1, y - 1, &xyz[0], &xyz[1]);
  xyz[2] = 0;
}

static int hex_prepare(astar_topology *t, int reverse) {
  (void)t;
  (void)reverse;
  return ASTAR_OK;
}

/* The cell p was reached from by direction d: one step back from p. */
static int32_t hex_link_from(const astar_topology *t, int32_t p, int32_t d) {
  const astar_hex *hx = CHEX(t);
  int32_t y = hex_row(hx, p);
  return p + hx->off[parity(hx, p - y * hx->pw - 1, y - 1)][(d + 3) % 6];
}

static int32_t hex_link_to(const astar_topology *t, int32_t p, int32_t d) {
  const astar_hex *hx = CHEX(t);
  int32_t y = hex_row(hx, p);
  return p + hx->off[parity(hx, p - y * hx->pw - 1, y - 1)][d];
}

/* See graph_step_cost: the search accepted this step, query_step cannot
** fail here. */
static int hex_step_cost(const astar_search *s, int32_t p, int32_t d, double *c) {
  const astar_hex *hx = CHEX(s->topo);
  *c = hx->cost ? hx->cost[p] : 1.0;
  return query_step((astar_search *)s, hex_external(s->topo, hex_link_from(s->topo, p, d)),
                    hex_external(s->topo, p), d, hx->tag ? hx->tag[p] : 0, c, 0) > 0;
}

static void hex_each_step(const astar_topology *t, astar_step_visit visit, void *ctx) {
  const astar_hex *hx = CHEX(t);
  int32_t x, y;
  int d;
  for (y = 0; y < hx->h; y++)
    for (x = 0; x < hx->w; x++) {
      int32_t p = CELL(hx, x, y);
      int par = parity(hx, x, y);
      if (hx->blocked[p]) continue;
      for (d = 0; d < 6; d++) {
        int32_t q = p + hx->off[par][d];
        if (hx->blocked[q]) continue;
        visit(ctx, y * hx->w + x, (y + hx->ddy[par][d]) * hx->w + x + hx->ddx[par][d],
              hx->cost ? hx->cost[q] : 1.0);
      }
    }
}

/* Hex distance: it bounds a step (one) and is exact on open ground. */
static double hex_distance(const astar_topology *t, int32_t a, int32_t b) {
  const astar_hex *hx = CHEX(t);
  return astar_hex_distance(hx, a % hx->w, a / hx->w, b % hx->w, b / hx->w);
}

static double hex_estimate(const astar_search *s, int32_t p) {
  const astar_hex *hx = CHEX(s->topo);
  hex_at a = hex_locate(hx, p);
  return hex_h(s, p, a.q, a.r);
}

static int hex_default_heuristic(const astar_topology *t) {
  (void)t;
  return ASTAR_H_HEX;
}

static int hex_plain(const astar_topology *t) { return CHEX(t)->cost == NULL; }

static size_t hex_bytes(const astar_topology *t) {
  const astar_hex *hx = CHEX(t);
  size_t n = (size_t)hx->pw * (size_t)hx->ph;
  return sizeof *hx + n + (hx->cost ? n * sizeof(double) : 0) +
         (hx->tag ? n * sizeof(uint16_t) : 0);
}

static const astar_topo_ops hex_ops = {
    .kind = "hex",
    .count = hex_count,
    .span = hex_span,
    .internal = hex_internal,
    .external = hex_external,
    .passable = hex_passable,
    .position = hex_position,
    .prepare = hex_prepare,
    .link_from = hex_link_from,
    .link_to = hex_link_to,
    .step_cost = hex_step_cost,
    .each_step = hex_each_step,
    .default_heuristic = hex_default_heuristic,
    /* the square metrics (manhattan, octile, chebyshev) overestimate a
    ** step between centres one apart, or mean nothing here */
    .heuristics = HEURISTIC_BIT(ASTAR_H_ZERO) | HEURISTIC_BIT(ASTAR_H_EUCLIDEAN) |
                  HEURISTIC_BIT(ASTAR_H_HEX) | HEURISTIC_BIT(ASTAR_H_BISECTOR) |
                  HEURISTIC_BIT(ASTAR_H_FULL_BISECTOR),
    .estimate = hex_estimate,
    .distance = hex_distance,
    .octile_k = ASTAR_SQRT2 - 1,
    .plain = hex_plain,
    .run_general = hex_run,
    .run_plain = hex_run_plain,
    .run_reverse = hex_run_reverse,
    .bytes = hex_bytes,
};
