/*
** lattice.h -- the cell lattice under every grid, shared by lattice.c (storage,
** edits, sized units, field repair), the shapes (grid.c: square, hex.c: hex)
** and jps.c.  Private to the core.
**
** A grid is cells in rows, stored with a one-cell blocked border (padded
** width pw = w + 2), so no loop tests bounds.  External cell ids are
** y * w + x; internal ids are padded indices (y + 1) * pw + (x + 1).  What
** differs between shapes is data and a few hooks:
**   - the neighbourhood, as data: per direction the column and row step
**     (two tables, picked by the cell's parity: hex offset coordinates step
**     differently from odd and even rows or columns), the opposite
**     direction, the step's length, and the diagonal rule (the directions
**     whose step also needs side cells open, and which ones);
**   - the metric: a cell's coordinates for the heuristic (square: column
**     and row; hex: axial), their change per direction, the estimate;
**   - line of sight and the clearance of sized units (lat_shape's hooks).
** Everything else -- storage, edits, the change log, component updates,
** sized units, distance field repair, the search's expansions -- is
** written once, here and in lattice.c.
**
** The expansions are one template, lat_expand, that each shape
** instantiates once per mode with constant flags (forward or reverse,
** sized, plain) and its own inline locate and estimate functions; the
** compiler folds the flags and inlines the shape's functions, so every
** mode of every shape is a loop of its own with no branch on either.
*/
#ifndef ASTAR_LATTICE_H
#define ASTAR_LATTICE_H

#include "engine.h"

ASTAR_INTERNAL_BEGIN /* hidden, see astar_int.h */

#define LAT_MAXDIR 8

    typedef struct lat_shape lat_shape;
typedef struct lat_sectors lat_sectors;

struct astar_grid {
  astar_topology t; /* first: the topology view of the grid */
  /* what every expansion reads, together (a cache line or two) */
  int32_t w, h, pw, ph;
  uint32_t row_m, row_s;  /* lat_row's multiplier and shift */
  unsigned char *blocked; /* pw * ph; 1 blocked (the border too) */
  unsigned char *moves;   /* pw * ph; bit d: the step in direction d is
                             ** allowed by the blocked cells and the rule
                             ** (kept current by set_blocked) */
  double *cost;           /* pw * ph or NULL while every cost is 1 */
  uint16_t *tag;          /* pw * ph or NULL while every tag is 0 */
  unsigned char *clear;   /* pw * ph or NULL until a sized unit needs it:
                             ** the largest unit that fits at each cell,
                             ** 0 on blocked cells and the border (kept
                             ** current by set_blocked once built) */
  /* the neighbourhood: by parity and direction, the step in padded ids,
  ** in external ids, in columns and rows, and the neighbour's parity */
  int32_t off[2][LAT_MAXDIR], ext[2][LAT_MAXDIR];
  signed char ddx[2][LAT_MAXDIR], ddy[2][LAT_MAXDIR];
  unsigned char npar[2][LAT_MAXDIR];
  const lat_shape *shape;
  int ndir;         /* directions a step may take: 4 or 8 (square), 6 (hex) */
  int rule;         /* square: the astar_diagonal rule; hex: -1 */
  int layout;       /* hex: the astar_layout; square: -1 */
  int par_x, par_y; /* the parity of a cell is (x & par_x | y & par_y) & 1 */
  /* the move rule: steps in `straight` directions need their target open;
  ** steps in `diag` directions also side cells (side[d]) by `rule` */
  unsigned straight, diag;
  unsigned char side[LAT_MAXDIR][2];
  unsigned char moves_of[256]; /* the rule for every set of open neighbours */
  int32_t *scratch;            /* the clearance update's queue (hex), grown */
  size_t scratch_cap;          /* as needed */
  /* Open cells as bit sets, for jump point search (square grids; NULL
  ** elsewhere; kept current by set_blocked like `moves`): bit x of row y
  ** and bit y of column x (padded coordinates) is set when the cell is
  ** open.  rw, cw: 64-bit words per row, per column; the bits past the end
  ** of a line are 0 (blocked).  A line's words are interleaved with its
  ** stop bits (stopbits.c; kept current too): word k of its open bits is
  ** the line's word LAT_OPEN_W(k), between its stop bits for scans toward
  ** higher positions (LAT_UP_W(k)) and lower ones (LAT_DOWN_W(k)), so
  ** rs = LAT_GROUP (3) * rw words from a row to the next, cs = LAT_GROUP
  ** * cw from a column to the next. */
  uint64_t *rows, *cols;
  int32_t rw, cw, rs, cs;
  /* the change log (astar_grid_track_changes): a ring of the last log_cap
  ** changes, each the version it made and the cell (external id) */
  struct lat_change {
    uint32_t version;
    int32_t cell;
  } * log;
  size_t log_cap, log_n; /* log_n: changes written since tracking began */
  uint32_t log_dropped;  /* the version of the last line the ring wrote over */
  lat_sectors *sec;      /* the components by sector (sectors.c), NULL
                         ** until a question needs them */
  /* edits as one change (astar_grid_edits_begin/_end): the depth of the
  ** batch, and whether it has made its version yet */
  int edits;
  int edits_versioned;
  /* the jump table (jpsplus.c), NULL until astar_grid_precompute_jumps:
  ** 8 per padded cell, by direction, each within +-127; kept current by
  ** set_blocked */
  int8_t *jump;
  int jump_auto; /* "auto" takes the table (its runs were long at build) */
  /* units' bit sets (jpsunits.c), NULL until a sized jump point search
  ** needs them: by unit size k, NULL or the rows then the columns (as
  ** rows, cols) of the cells where a unit of size k fits; kept current by
  ** set_blocked through the clearance update */
  uint64_t **ubits;
  /* inside a batch the table's repair waits for astar_grid_edits_end: how
  ** many blocked-bit edits wait, and the log line of the first (jpsplus.c) */
  size_t jump_pending, jump_log0;
};

/* What a shape is beyond its neighbourhood tables: its operations, the
** per-direction constants the expansions read, and hooks. */
struct lat_shape {
  const astar_topo_ops *ops;
  /* what the expansions read per direction, together */
  double len[LAT_MAXDIR];                  /* a step's length (its cost at cost 1) */
  double mdx[LAT_MAXDIR], mdy[LAT_MAXDIR]; /* metric coordinates' change */
  unsigned char opp[LAT_MAXDIR];           /* the opposite direction */
  /* line of sight between two cells inside the grid, for one cell and for
  ** a unit of size k > 1 (clearance built) */
  int (*sight)(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1);
  int (*sight_unit)(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    int32_t k);
  /* whether cell (x, y) is within `radius` of (x0, y0) (visible_from) */
  int (*in_radius)(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x, int32_t y,
                   double radius);
  /* the clearance layer: built once (ENOMEM), then kept current after the
  ** blocked bit of (x, y) changed; an update that cannot get memory drops
  ** the layer (the next use builds it again and reports ENOMEM there) */
  int (*clear_build)(astar_grid *gr);
  void (*clear_update)(astar_grid *gr, int32_t x, int32_t y);
  /* the cells of a unit of size k at a cell of parity par: writes their
  ** steps from that cell in padded ids to pad and in external ids to ext
  ** (room for unit_cells), the cell itself first; returns how many */
  int32_t (*unit_cells)(const astar_grid *gr, int32_t k, int par, int32_t *pad, int32_t *ext);
  /* how many cells unit_cells writes for size k */
  int32_t (*unit_count)(int32_t k);
  /* whether cell (cx, cy) is one of the unit of size k at (x, y) (any
  ** coordinates; the unit's cells are within k - 1 columns and rows) */
  int (*in_unit)(const astar_grid *gr, int32_t x, int32_t y, int32_t k, int32_t cx, int32_t cy);
};

#define LAT_CELL(gr, x, y) (((y) + 1) * (gr)->pw + (x) + 1)
#define LAT_INSIDE(gr, x, y) ((x) >= 0 && (y) >= 0 && (x) < (gr)->w && (y) < (gr)->h)

/* lat_row's multiplier and shift for width pw (3 <= pw < 2^31), set when
** the grid is made: floor(p / pw) = (p * row_m) >> row_s for 0 <= p < 2^31
** (Granlund and Montgomery 1994, theorem 4.2 with N = 31).  With
** l = ceil(log2 pw), row_s = 31 + l and row_m = ceil(2^row_s / pw):
** 2^row_s <= row_m * pw < 2^row_s + pw <= 2^row_s + 2^l, the theorem's
** condition; pw > 2^(l - 1) keeps row_m below 2^32 and the product below
** 2^63.  core_test checks both ends of every row of the largest grids. */
ASTAR_INLINE void lat_row_magic(int32_t pw, uint32_t *m, uint32_t *s) {
  uint32_t l = 0;
  while (((uint64_t)1 << l) < (uint64_t)pw) l++;
  *s = 31 + l;
  *m = (uint32_t)((((uint64_t)1 << *s) + (uint64_t)pw - 1) / (uint64_t)pw);
}

/* Row of padded index p: a multiply and a shift, no division (a 32-bit
** division is 10-30 cycles, on an expansion's critical path). */
ASTAR_INLINE int32_t lat_row(const astar_grid *gr, int32_t p) {
  return (int32_t)(((uint64_t)(uint32_t)p * gr->row_m) >> gr->row_s);
}

ASTAR_INLINE int lat_par(const astar_grid *gr, int32_t x, int32_t y) {
  return (int)(((x & gr->par_x) | (y & gr->par_y)) & 1);
}

/* The parity of padded cell p (any cell of the padded array): no row to
** find on shapes without parity (square grids). */
ASTAR_INLINE int lat_par_of(const astar_grid *gr, int32_t p) {
  int32_t y;
  if (!(gr->par_x | gr->par_y)) return 0;
  y = lat_row(gr, p);
  return lat_par(gr, p - y * gr->pw - 1, y - 1);
}

ASTAR_INLINE int32_t lat_tag(const astar_grid *gr, int32_t p) {
  return gr->tag ? gr->tag[p] : 0;
}

/* The external id of padded cell p (inside the grid). */
ASTAR_INLINE int32_t lat_ext(const astar_grid *gr, int32_t p) {
  int32_t y = lat_row(gr, p);
  return (y - 1) * gr->w + (p - y * gr->pw - 1);
}

/* A path's run (jps.c): n cells after nodes[i - 1] (an external id), each
** `step` on (the grid's ext) in direction d at cost c; the links' test once
** per run; without links (a path for Lua), the cells four a round (the
** loop's own steps a quarter as often: a median game path's runs are about
** ten cells).  The cost: with exact set (every sum of the path's steps is
** exact: jps.c), n * c added at once, which is then the sum of n additions
** to the bit; otherwise summed step by step in path order.  Returns the
** next i. */
ASTAR_INLINE int32_t lat_path_run(int32_t *nodes, int32_t *links, int32_t i, int32_t n, int d,
                                  int32_t step, double c, double *sum, int exact) {
  int32_t e = nodes[i - 1], end = i + n;
  if (exact) {
    *sum += n * c;
    if (links)
      for (; i < end; i++) nodes[i] = e += step, links[i - 1] = d;
    else {
      for (; i + 4 <= end; i += 4, e += 4 * step) { /* Lua's paths: four a round */
        nodes[i] = e + step;
        nodes[i + 1] = e + 2 * step;
        nodes[i + 2] = e + 3 * step;
        nodes[i + 3] = e + 4 * step;
      }
      for (; i < end; i++) nodes[i] = e += step;
    }
  } else {
    double t = *sum;
    if (links)
      for (; i < end; i++) nodes[i] = e += step, links[i - 1] = d, t += c;
    else
      for (; i < end; i++) nodes[i] = e += step, t += c;
    *sum = t;
  }
  return i;
}

/* Distance searches' estimate (field repair, query repair): always zero. */
ASTAR_INLINE double lat_zero_h(const astar_search *s, int32_t v, double x, double y) {
  (void)s;
  (void)v;
  (void)x;
  (void)y;
  return 0.0;
}

/* The rule, in one place: `open` has bit d set when the neighbour in
** direction d may be entered; the result has bit d set when the step is
** allowed.  A straight step needs its target open; a diagonal one its
** target and, by the rule, both side cells (no_corner_cutting), at least
** one (one_obstacle) or neither (always).  The rule is symmetric (the same
** two side cells decide a diagonal step either way), so reverse expansions
** use it too.  lattice.c tabulates it for every `open` once per grid
** (moves_of): map loads, edits and the general loops then look it up. */
ASTAR_INLINE unsigned lat_rule_moves(const astar_grid *gr, unsigned open) {
  return gr->moves_of[open & 0xffu];
}

/* Octile at the point (x, y) of the plane, alone (lat_h_plane's case, and
** jpsplus.c's octile-only relaxation: one formula, so the same bits). */
ASTAR_INLINE double lat_h_octile(const astar_search *s, int32_t v, double x, double y) {
  double ax = fabs(x - s->gx), ay = fabs(y - s->gy);
  (void)v;
  return ax < ay ? s->octile_k * ax + ay : s->octile_k * ay + ax;
}

/* The built-in estimate at the point (x, y) of the plane (square grids
** and their jump point search): small coordinates, no clamp.  Octile uses
** the grid's own diagonal cost, so it is exact and consistent. */
ASTAR_INLINE double lat_h_plane(const astar_search *s, int32_t v, double x, double y) {
  double ax = fabs(x - s->gx), ay = fabs(y - s->gy);
  switch (s->q.heuristic) { /* builtin_h's formulas in 2-D: the hot case first */
    case ASTAR_H_OCTILE: return lat_h_octile(s, v, x, y);
    case ASTAR_H_ZERO: return 0.0;
    case ASTAR_H_MANHATTAN: return ax + ay;
    case ASTAR_H_CHEBYSHEV: return ax > ay ? ax : ay;
    case ASTAR_H_EUCLIDEAN: return sqrt(ax * ax + ay * ay);
    default: return builtin_h(s, x, y, 0.0);
  }
}

/* ------------------------------------------------------------------------ */
/* the expansion template                                                     */
/* ------------------------------------------------------------------------ */

/* Where an expansion of padded cell p starts: the cell's parity, its
** external id and its metric coordinates (the shape's locate function). */
typedef struct lat_at {
  int par;
  int32_t up;
  double mx, my;
} lat_at;

typedef lat_at (*lat_locate_fn)(const astar_grid *gr, int32_t p);
/* A step's length by direction (lat_shape.len as code: a constant or a
** compare where the table would be a load per neighbour). */
typedef double (*lat_len_fn)(int d);

/* All directions but the one back to p's parent: a child never improves its
** parent (g(parent) + 2 c >= g(parent) for any costs >= 0), so that step
** is never worth relaxing, whatever the heuristic. */
ASTAR_INLINE unsigned lat_back_mask(const astar_search *s, const lat_shape *sh, int32_t p) {
  int32_t d = *parent_at(s, p);
  return d < 0 ? 0xffu : ~(1u << sh->opp[d]) & 0xffu;
}

/* Padded cell v (external id ext) is forbidden to the query (filter.h);
** only asked when the query forbids something (s->shuts). */
ASTAR_INLINE int lat_shut(const astar_search *s, const astar_grid *gr, int32_t v,
                          int32_t ext) {
  return filter_forbids(&s->q, ext, lat_tag(gr, v));
}

/* The moves out of padded cell p (parity par, external id up) this query
** allows: the grid's own mask, or, when the query forbids cells, the same
** rule with forbidden cells counted as blocked. */
ASTAR_INLINE unsigned lat_query_moves(const astar_search *s, const astar_grid *gr, int32_t p,
                                      int par, int32_t up) {
  unsigned open = 0;
  int d;
  if (!s->shuts) return gr->moves[p];
  for (d = 0; d < gr->ndir; d++) {
    int32_t q = p + gr->off[par][d];
    if (!gr->blocked[q] && !lat_shut(s, gr, q, up + gr->ext[par][d])) open |= 1u << d;
  }
  return lat_rule_moves(gr, open);
}

/* The cost of entering padded cell q by direction d, before the query's
** filter. */
ASTAR_INLINE double lat_base_cost(const astar_grid *gr, const lat_shape *sh, int32_t q,
                                  int d) {
  return gr->cost ? sh->len[d] * gr->cost[q] : sh->len[d];
}

/*
** Sized units (query.size = k > 1).  A unit stands at a cell and covers
** the shape's unit cells around it.  It fits where they are all open (the
** clearance layer answers that in one read) and none is forbidden; the
** move rules are the one-cell rules with "the neighbour is open" read as
** "the unit fits there" (a diagonal step's side cells become the unit at
** the two side positions).  A step costs the largest of the entered
** unit's cell costs.  One-cell queries never come here.  The unit's cells
** are listed once per query in the search (s->foot, lattice.c's
** unit_begin): their steps by parity, in padded and external ids.
*/
ASTAR_INLINE const int32_t *lat_foot(const astar_search *s, int par) {
  return s->foot + (size_t)par * 2 * (size_t)s->nfoot;
}

/* The query's unit fits at padded cell q (external id uq, parity qpar). */
ASTAR_INLINE int lat_unit_fits(const astar_search *s, const astar_grid *gr, int32_t q,
                               int32_t uq, int qpar) {
  const int32_t *pad, *ext;
  int32_t i, n = s->nfoot;
  if (gr->clear[q] < s->q.size) return 0; /* also every unit past the border */
  if (!s->shuts) return 1;
  pad = lat_foot(s, qpar);
  ext = pad + n;
  for (i = 0; i < n; i++)
    if (lat_shut(s, gr, q + pad[i], uq + ext[i])) return 0;
  return 1;
}

/* The moves the unit at padded cell p (parity par, external id up) may
** make: forwards, or read backwards (the rule is symmetric). */
ASTAR_INLINE unsigned lat_unit_moves(const astar_search *s, const astar_grid *gr, int32_t p,
                                     int par, int32_t up) {
  unsigned open = 0;
  int d;
  for (d = 0; d < gr->ndir; d++)
    if (lat_unit_fits(s, gr, p + gr->off[par][d], up + gr->ext[par][d], gr->npar[par][d]))
      open |= 1u << d;
  return lat_rule_moves(gr, open);
}

/*
** The cost of the unit's step from external cell `from` into the unit at
** padded cell q (external id uq, parity qpar) by direction d, the
** callback aside: the largest of the unit's cells' costs, each computed by
** query_step as a one-cell step into it would be (so a cell whose cost is
** bad decides the step and is the one an error names).  Without cell
** costs, tag factors or a penalty every cell costs the step's length, and
** nothing is read.  Returns as query_step.
*/
ASTAR_INLINE int lat_unit_cost(astar_search *s, const astar_grid *gr, const lat_shape *sh,
                               int32_t from, int32_t q, int32_t uq, int qpar, int d,
                               double *c) {
  const int32_t *pad, *ext;
  int32_t i, n = s->nfoot;
  double most = 0;
  if (!gr->cost && !(gr->tag && s->q.tag_factor) && !s->q.penalty) {
    *c = sh->len[d];
    return 1;
  }
  pad = lat_foot(s, qpar);
  ext = pad + n;
  for (i = 0; i < n; i++) {
    int32_t r = q + pad[i];
    double v = lat_base_cost(gr, sh, r, d);
    int rc = query_step(s, from, uq + ext[i], d, lat_tag(gr, r), &v, 0);
    if (rc <= 0) return rc;
    if (v > most || i == 0) most = v;
  }
  *c = most;
  return 1;
}

/*
** One expansion of padded cell p, for every mode of every shape:
**   reverse  relax each step into p backwards (distance searches toward
**            sources: a neighbour a offers a -> p at the cost of entering p,
**            and a's link is that step's direction);
**   sized    the query's unit, not one cell;
**   plain    the fast path: the grid's move mask already applies the
**            blocked cells and the rule, and every step costs its length
**            (no cost layer, no filter, no callback: search.c's
**            query_plain and the shape's plain operation decide);
** sh, locate, len, hf: the shape's constants, its locate function, its
** step lengths (the fast path's costs) and its estimate.  Every argument
** but s and p is a constant at each instantiation (lattice.h's header
** says why).
*/
ASTAR_INLINE int lat_expand(astar_search *s, int32_t p, int reverse, int sized, int plain,
                            const lat_shape *sh, lat_locate_fn locate, lat_len_fn len,
                            astar_h_fn hf) {
  const astar_grid *gr = (const astar_grid *)s->topo;
  lat_at a = locate(gr, p);
  const int32_t *off = gr->off[a.par], *ext = gr->ext[a.par];
  double gp = node_at(s, p)->g;
  unsigned m = plain   ? gr->moves[p]
               : sized ? lat_unit_moves(s, gr, p, a.par, a.up)
                       : lat_query_moves(s, gr, p, a.par, a.up);
  int d, rc;
  if (!reverse) m &= lat_back_mask(s, sh, p);
  for (d = 0; m != 0; d++, m >>= 1) {
    int32_t q, uq;
    int link;
    double c;
    if (!(m & 1)) continue;
    q = p + off[d];
    if (plain) { /* ext: unused when plain */
      rc = relax_impl(s, q, 0, d, gp + len(d), 0, a.mx + sh->mdx[d], a.my + sh->mdy[d], 1, hf);
      if (rc != ASTAR_OK) return rc;
      continue;
    }
    uq = a.up + ext[d];
    link = reverse ? sh->opp[d] : d;
    if (sized) {
      rc = reverse ? lat_unit_cost(s, gr, sh, uq, p, a.up, a.par, link, &c)
                   : lat_unit_cost(s, gr, sh, a.up, q, uq, gr->npar[a.par][d], link, &c);
      if (rc > 0)
        rc = reverse ? query_callback(s, uq, a.up, link, &c) : query_callback(s, a.up, uq, link, &c);
    } else {
      c = lat_base_cost(gr, sh, reverse ? p : q, link);
      rc = reverse ? query_step(s, uq, a.up, link, lat_tag(gr, p), &c, 1)
                   : query_step(s, a.up, uq, link, lat_tag(gr, q), &c, 1);
    }
    if (rc <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    rc = relax_impl(s, q, uq, link, gp + c, c, a.mx + sh->mdx[d], a.my + sh->mdy[d], 0, hf);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* A shape's modes: one line each, the loop of engine.h around the
** template with the mode's constant flags.  Defines prefix##_runs, the
** run[] table of its astar_topo_ops (engine.h: search_loop). */
#define LAT_MODES(prefix, shape, locate, len, hf) \
  static int prefix##_general(astar_search *s, int32_t p) { \
    return lat_expand(s, p, 0, 0, 0, &shape, locate, len, hf); \
  } \
  ASTAR_INLINE int prefix##_plain(astar_search *s, int32_t p) { \
    return lat_expand(s, p, 0, 0, 1, &shape, locate, len, hf); \
  } \
  static int prefix##_reverse(astar_search *s, int32_t p) { \
    return lat_expand(s, p, 1, 0, 0, &shape, locate, len, hf); \
  } \
  static int prefix##_sized(astar_search *s, int32_t p) { \
    return lat_expand(s, p, 0, 1, 0, &shape, locate, len, hf); \
  } \
  static int prefix##_sized_reverse(astar_search *s, int32_t p) { \
    return lat_expand(s, p, 1, 1, 0, &shape, locate, len, hf); \
  } \
  static int prefix##_run_general(astar_search *s, uint64_t n) { \
    return search_loop(s, n, prefix##_general); \
  } \
  static int prefix##_run_plain(astar_search *s, uint64_t n) { \
    return search_loop(s, n, prefix##_plain); \
  } \
  static int prefix##_run_reverse(astar_search *s, uint64_t n) { \
    return search_loop(s, n, prefix##_reverse); \
  } \
  static int prefix##_run_sized(astar_search *s, uint64_t n) { \
    return search_loop(s, n, prefix##_sized); \
  } \
  static int prefix##_run_sized_reverse(astar_search *s, uint64_t n) { \
    return search_loop(s, n, prefix##_sized_reverse); \
  }

#define LAT_RUNS(prefix) \
  { \
    [ASTAR_RUN_GENERAL] = prefix##_run_general, [ASTAR_RUN_PLAIN] = prefix##_run_plain, \
    [ASTAR_RUN_REVERSE] = prefix##_run_reverse, [ASTAR_RUN_SIZED] = prefix##_run_sized, \
    [ASTAR_RUN_SIZED_REVERSE] = prefix##_run_sized_reverse \
  }

/* ------------------------------------------------------------------------ */
/* lattice.c                                                                  */
/* ------------------------------------------------------------------------ */

/* The neighbourhood of a new grid (its shape's constructor fills it). */
typedef struct lat_geometry {
  int ndir;
  signed char ddx[2][LAT_MAXDIR], ddy[2][LAT_MAXDIR];
  int par_x, par_y;
  unsigned straight, diag;
  unsigned char side[LAT_MAXDIR][2];
  int rule, layout;
  int bitsets; /* keep the open-cell bit sets (jump point search) */
} lat_geometry;

/* A new all-open grid of the shape; NULL when out of memory (the sizes are
** checked by the caller). */
astar_grid *astar__lat_new(const lat_shape *sh, const lat_geometry *geo, int32_t width,
                           int32_t height, astar_alloc_fn alloc, void *ud);

/* The topology operations every shape shares (its ops table names them). */
int32_t astar__lat_count(const astar_topology *t);
size_t astar__lat_span(const astar_topology *t);
int32_t astar__lat_internal(const astar_topology *t, int32_t c);
int32_t astar__lat_external(const astar_topology *t, int32_t p);
int astar__lat_passable(const astar_topology *t, int32_t p);
int32_t astar__lat_node_tag(const astar_topology *t, int32_t p);
int astar__lat_prepare(astar_topology *t, int reverse);
int32_t astar__lat_link_from(const astar_topology *t, int32_t p, int32_t d);
int32_t astar__lat_link_to(const astar_topology *t, int32_t p, int32_t d);
void astar__lat_externals(const astar_topology *t, int32_t *ids, int32_t n);
int astar__lat_step_cost(const astar_search *s, int32_t p, int32_t d, double *c);
void astar__lat_each_step(const astar_topology *t, astar_step_visit visit, void *ctx);
int astar__lat_plain(const astar_topology *t);
size_t astar__lat_bytes(const astar_topology *t);
extern const astar_unit_ops astar__lat_units;

/* The members of a shape's astar_topo_ops that every shape shares
** (designated initializers: the shape's table adds its kind, metric,
** modes and abilities). */
#define LAT_SHARED_OPS \
  .count = astar__lat_count, .span = astar__lat_span, .internal = astar__lat_internal, \
  .external = astar__lat_external, .externals = astar__lat_externals, .passable = astar__lat_passable, \
  .node_tag = astar__lat_node_tag, .prepare = astar__lat_prepare, \
  .link_from = astar__lat_link_from, .link_to = astar__lat_link_to, \
  .step_cost = astar__lat_step_cost, .each_step = astar__lat_each_step, \
  .plain = astar__lat_plain, .bytes = astar__lat_bytes, .units = &astar__lat_units, \
  .conn = &astar__lat_conn

/* components by sector (sectors.c): the ability every shape shares, the
** mark an edit of (x, y)'s blocked bit leaves, and the memory's release */
extern const astar_conn_ops astar__lat_conn;
void astar__sec_mark(astar_grid *gr, int32_t x, int32_t y);
void astar__sec_build_all(astar_grid *gr);
void astar__sec_free(astar_grid *gr);

/* jump point search (jps.c): the square grid's ability */
extern const astar_jps_ops astar__grid_jps;

/* the jump table (jpsplus.c): the precomputed mode's own refusal (for a
** query JPS serves) and loops, the repair after the blocked bit of (x, y)
** changed, the release */
const char *astar__jump_refusal(const astar_topology *t, const astar_query *q);
int astar__jump_auto(const astar_topology *t);
void astar__jump_defer(astar_grid *gr);
void astar__jump_flush(astar_grid *gr);
int astar__jump_run(astar_search *s, uint64_t n);
int astar__jump_run_plain(astar_search *s, uint64_t n);
void astar__jump_update(astar_grid *gr, int32_t x, int32_t y);
void astar__jump_free(astar_grid *gr);

/* Where word k of a line's open bits and of its two stop bit sets lie
** among the line's words (astar_grid: rows, cols): LAT_GROUP words for
** each 64 cells of a line. */
#define LAT_GROUP 3
#define LAT_UP_W(k) (LAT_GROUP * (size_t)(k))
#define LAT_OPEN_W(k) (LAT_GROUP * (size_t)(k) + 1)
#define LAT_DOWN_W(k) (LAT_GROUP * (size_t)(k) + 2)

/* the lines' stop bits (stopbits.c): built from the open bits, and kept
** current after padded cell (x, y)'s open bit changed */
void astar__stop_build(astar_grid *gr);
void astar__stop_cell(astar_grid *gr, int32_t x, int32_t y);

/* units' bit sets (jpsunits.c): built for size k (from the clearance
** layer; ENOMEM), and with the layer first (the jps ops' prepare_sized), a
** cell's clearance change, the memory held, the release */
int astar__ubits_build(astar_grid *gr, int32_t k);
int astar__ubits_prepare(astar_topology *t, int32_t k);
void astar__ubits_set(astar_grid *gr, int32_t p, unsigned was, unsigned now);
size_t astar__ubits_bytes(const astar_grid *gr);
void astar__ubits_free(astar_grid *gr);

ASTAR_INTERNAL_END

#endif
