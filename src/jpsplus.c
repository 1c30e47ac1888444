/*
** jpsplus.c -- jump point search over precomputed jump distances (JPS+:
** Rabin, GDC 2015; Harabor & Grastien, "Improving jump point search",
** ICAPS 2014), on square grids with diagonal rule no_corner_cutting.
**
** The table holds, for every padded cell and each of the 8 directions
** (grid.c's order), where the run from the cell in that direction stops,
** as jps.c's scans would find it:
**   k > 0   a stop k steps on (straight: a jump point, a cell with a
**           forced neighbour; diagonal: a jump point, a cell from which a
**           straight run along one of the diagonal's two components finds
**           one);
**   k <= 0  no jump point: the run has -k open cells before a wall (or,
**           diagonally, before a step the rule forbids);
**   33..48  (diagonal only) a waypoint k - 32 steps on, where the run
**           stops although nothing is there (see JUMP_DIAG_STOP);
**   +-127   (straight only) an escape: the run goes on past JUMP_RUN open
**           cells (127: it finds a jump point further on; -127: it does
**           not), and the entry JUMP_RUN cells on tells the rest.
** So every entry fits an int8_t (8 bytes a cell): the diagonal ones stop
** within 16 steps (JUMP_DIAG_STOP), the straight ones within JUMP_RUN.
** Blocked cells (the border too) hold 0 everywhere.  An expansion reads
** one entry per straight direction instead of scanning (the goal on the
** run stops it first); a diagonal run hops from stop to stop -- its jump
** points, the cell where it crosses the goal's row or column, waypoints
** past which its stop lies far on (JUMP_DIAG_STOP) -- and
** offers what the straight entries there find, as jps.c's diagonal runs
** do: the nodes are JPS's own.  Pruning, parents and paths are jps.c's
** (jps.h, astar__grid_jps.path): a jump is a diagonal run then a straight
** one, so paths list every cell and cost what A*'s cost, to the bit.
**
** Every entry is a function of the next cell's entries along its run and
** of the blocked bits and move masks next to it, so the table is built by
** one sweep per direction against the run, and an edit repairs it by
** recomputing the entries whose inputs it changed and walking back along
** each run while the values change (astar__jump_update).
*/
#include "jps.h"

#define CGRID(t) ((const astar_grid *)(t))
#define JT(gr, c, d) ((gr)->jump[(size_t)(c)*8u + (size_t)(d)])

/* A straight entry's reach: a stop or a wall further on than JUMP_RUN
** steps is an escape, +-JUMP_ESC.  A straight entry then depends on at most
** JUMP_RUN entries after it but for the escape's sign (whether the run
** finds a jump point at all, which the diagonal entries read). */
#define JUMP_RUN 126
#define JUMP_ESC 127

ASTAR_INLINE int8_t jump_cap(int32_t v) {
  if (v > JUMP_RUN) return JUMP_ESC;
  return (int8_t)(v < -JUMP_RUN ? -JUMP_ESC : v);
}

/* The straight entry of padded cell c in direction d (0..3: step st, side
** step sd, over the blocked bits b), uncapped, from the next cell's v: a
** wall next is 0, a forced neighbour there (a side cell open whose
** predecessor, beside c, is blocked) is a jump point 1 on.  From a capped
** v, jump_cap of it is the capped entry. */
ASTAR_INLINE int32_t straight_raw(const unsigned char *b, int32_t c, int32_t st, int32_t sd,
                                  int32_t v) {
  int32_t n = c + st;
  if (b[c] || b[n]) return 0;
  if ((!b[n + sd] && b[c + sd]) || (!b[n - sd] && b[c - sd])) return 1;
  return v > 0 ? v + 1 : v - 1;
}

/* The build's sweep step for the straight entry of c in direction d: the
** uncapped entries ride in the cells' diagonal slots (4 bytes, free until
** the diagonal sweeps), so the build sees each run's true length ("auto"'s
** mean below); returns it, as |k|. */
static int32_t sweep_straight(astar_grid *gr, int32_t c, int d) {
  int32_t v, t;
  memcpy(&v, &JT(gr, c + gr->off[0][d], 4), sizeof v);
  t = straight_raw(gr->blocked, c, gr->off[0][d], d < 2 ? gr->pw : 1, v);
  memcpy(&JT(gr, c, 4), &t, sizeof t);
  JT(gr, c, d) = jump_cap(t);
  return t < 0 ? -t : t;
}

/* Waypoints.  A diagonal entry's stop or wall may lie further on than the
** next cell whose padded column is a multiple of JUMP_DIAG_STOP (a waypoint,
** 1..16 steps on: to_waypoint).  Then the entry is exact only while the
** stop or wall lies within JUMP_DIAG_EXACT steps; further on, the run stops
** at the waypoint and the entry says it is one: JUMP_WP + the steps to it.
** The search moves on from a waypoint without reading its straight entries
** (they find nothing), and never stops at one before a stop or wall within
** JUMP_DIAG_EXACT (11-44% of the stops the game and street maps' runs made
** when every waypoint stopped them).  An entry then depends on at most
** JUMP_DIAG_STOP entries after it, so a repair's walk back along a diagonal
** run is that long at most, however open the map: a new stop changes the
** entries up to JUMP_DIAG_EXACT cells back, or back to the waypoint before
** it (more exact cells: cheaper queries, dearer repairs; see doc/design.md). */
#ifndef JUMP_DIAG_STOP
#define JUMP_DIAG_STOP 16
#endif
#ifndef JUMP_DIAG_EXACT
#define JUMP_DIAG_EXACT 8
#endif
#define JUMP_WP 32 /* a waypoint's flag: entries JUMP_WP + 1 .. JUMP_WP + 16 */

/* The steps from padded column x to the next waypoint column in x step sx
** (1..JUMP_DIAG_STOP). */
ASTAR_INLINE int32_t to_waypoint(uint32_t x, int32_t sx) {
  return sx > 0 ? JUMP_DIAG_STOP - (int32_t)(x % JUMP_DIAG_STOP)
                : (int32_t)((x + JUMP_DIAG_STOP - 1) % JUMP_DIAG_STOP) + 1;
}

/* The diagonal entry of padded cell c, in padded column x, in direction d
** (4..7): 0 where the rule forbids the step; 1 where a straight run from the
** next cell along a component finds a jump point; else the next cell's stop
** or wall one further on (k, -k) if that is within JUMP_DIAG_EXACT steps or
** before the waypoint, else the waypoint.  diagonal_at from the next cell's
** entries ne (its entry in d: v) and column nx. */
ASTAR_INLINE int8_t diagonal_at(const int8_t *ne, int8_t v, uint32_t nx, int d) {
  /* the next cell's stop or wall is v + 1 (v > 0) or 1 - v steps from c,
  ** exact while within reach; a waypoint's (v > JUMP_WP) is past both
  ** bounds, so c's run stops at a waypoint too.  Branches, not selects: the
  ** repair's walk carries v from cell to cell, and a select chain made it
  ** 1.2-1.3x slower a step; but the two straight entries in one test (|,
  ** one branch, not two: 5% off the empty grid's costliest repair) */
  int32_t j;
  if ((ne[jdx[d] > 0 ? 0 : 1] > 0) | (ne[jdy[d] > 0 ? 2 : 3] > 0)) return 1;
  if (v > 0) {
    if (v < JUMP_DIAG_EXACT) return (int8_t)(v + 1);
  } else if (v > -JUMP_DIAG_EXACT) {
    return (int8_t)(v - 1);
  }
  j = to_waypoint(nx - (uint32_t)jdx[d], jdx[d]);
  if (v > 0 ? v < j : 1 - v <= j) return (int8_t)(v > 0 ? v + 1 : v - 1);
  return (int8_t)(JUMP_WP + j);
}

static int8_t diagonal_entry(const astar_grid *gr, int32_t c, int32_t x, int d) {
  const int8_t *ne = &JT(gr, c + gr->off[0][d], 0);
  if (!(gr->moves[c] >> d & 1u)) return 0; /* blocked cells have no moves */
  return diagonal_at(ne, ne[d], (uint32_t)(x + jdx[d]), d);
}

/* Every entry, by sweeps against each direction's runs: the straight ones
** first (the diagonal ones read them). */
#define JUMP_AUTO_RUN 5.0

static void build(astar_grid *gr) {
  int32_t pw = gr->pw, w = gr->w, h = gr->h, x, y;
  double sum = 0, n = 0;
  memset(gr->jump, 0, (size_t)pw * (size_t)gr->ph * 8u * sizeof *gr->jump);
  /* "auto" takes the table where straight runs are long (their mean entry,
  ** |k| uncapped, over the open cells at least JUMP_AUTO_RUN): there a table
  ** read saves a scan; on maps of short runs (mazes, random, rooms) the
  ** table's cache misses cost more than the bit scans of JPS (doc/design.md) */
  for (y = 1; y <= h; y++) {
    for (x = w; x >= 1; x--) sum += sweep_straight(gr, y * pw + x, 0);
    for (x = 1; x <= w; x++) sum += sweep_straight(gr, y * pw + x, 1);
  }
  for (y = h; y >= 1; y--)
    for (x = 1; x <= w; x++) sum += sweep_straight(gr, y * pw + x, 2);
  for (y = 1; y <= h; y++)
    for (x = 1; x <= w; x++) {
      sum += sweep_straight(gr, y * pw + x, 3);
      n += gr->blocked[y * pw + x] ? 0 : 4;
    }
  gr->jump_auto = n > 0 && sum >= JUMP_AUTO_RUN * n;
  for (y = h; y >= 1; y--) /* SE and SW read the row below */
    for (x = 1; x <= w; x++) {
      JT(gr, y * pw + x, 4) = diagonal_entry(gr, y * pw + x, x, 4);
      JT(gr, y * pw + x, 6) = diagonal_entry(gr, y * pw + x, x, 6);
    }
  for (y = 1; y <= h; y++) /* NE and NW the row above */
    for (x = 1; x <= w; x++) {
      JT(gr, y * pw + x, 5) = diagonal_entry(gr, y * pw + x, x, 5);
      JT(gr, y * pw + x, 7) = diagonal_entry(gr, y * pw + x, x, 7);
    }
}

int astar_grid_precompute_jumps(astar_grid *gr, int on) {
  size_t bytes;
  if (gr->t.lock > 0) return ASTAR_EBUSY;
  if (!on) {
    astar__jump_free(gr);
    return ASTAR_OK;
  }
  if (gr->rows == NULL || gr->rule != ASTAR_DIAG_NO_CORNER_CUTTING ||
      gr->w > ASTAR_JUMP_MAX_SIDE || gr->h > ASTAR_JUMP_MAX_SIDE)
    return ASTAR_EINVAL;
  bytes = (size_t)gr->pw * (size_t)gr->ph * 8u * sizeof *gr->jump;
  if (gr->jump == NULL &&
      (gr->jump = (int8_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, bytes)) == NULL)
    return ASTAR_ENOMEM;
  build(gr);
  gr->jump_pending = 0;
  return ASTAR_OK;
}

int astar_grid_has_jumps(const astar_grid *gr) { return gr->jump ? 1 + gr->jump_auto : 0; }

int astar__jump_auto(const astar_topology *t) { return CGRID(t)->jump_auto; }

const int8_t *astar_grid_jump_table(const astar_grid *gr, size_t *n) {
  *n = gr->jump ? (size_t)gr->pw * (size_t)gr->ph * 8u : 0;
  return gr->jump;
}

void astar__jump_free(astar_grid *gr) {
  if (gr->jump == NULL) return;
  astar__mem(gr->t.alloc, gr->t.ud, gr->jump,
             (size_t)gr->pw * (size_t)gr->ph * 8u * sizeof *gr->jump, 0);
  gr->jump = NULL;
  gr->jump_pending = 0;
}

/* ------------------------------------------------------------------------ */
/* repair                                                                     */
/* ------------------------------------------------------------------------ */

/* Recomputes the diagonal entry of c in direction d (the next cell in
** padded column nx), and while it changes the entries before it along the
** run (which read it).  Blocked cells and the border hold 0 and stay so: a
** walk stops there. */
ASTAR_INLINE void walk_diagonal(astar_grid *gr, int32_t c, uint32_t nx, int d) {
  const int32_t st = gr->off[0][d], sx = jdx[d];
  const ptrdiff_t st8 = (ptrdiff_t)st * 8;
  const unsigned char *mv = gr->moves + c;
  int8_t *e = &JT(gr, c, 0);
  int8_t v = (*mv >> d & 1u) ? e[st8 + d] : 0; /* and its entry: the last set */
  for (;; e -= st8, mv -= st, nx -= (uint32_t)sx) {
    v = (*mv >> d & 1u) ? diagonal_at(e + st8, v, nx, d) : 0;
    if (v == e[d]) return;
    e[d] = v;
  }
}

ASTAR_INLINE void fix_diagonal(astar_grid *gr, int32_t c, int d) {
  uint32_t nx = (uint32_t)(c % gr->pw + jdx[d]); /* the next cell's column */
  /* one walk per direction, its offsets constants */
  switch (d) {
    case 4: walk_diagonal(gr, c, nx, 4); break;
    case 5: walk_diagonal(gr, c, nx, 5); break;
    case 6: walk_diagonal(gr, c, nx, 6); break;
    default: walk_diagonal(gr, c, nx, 7); break;
  }
}

/* The cells of a straight run whose entry changed whether it finds a jump
** point (all a diagonal entry reads of it), and those between: from first
** back along the run, n cells (0: none). */
typedef struct {
  int32_t first, n;
} jump_flips;

/* Recomputes the straight entry of c in direction d, and while it changes
** the entries before it along the run.  Returns the cells whose entry
** changed sign: astar__jump_update walks the diagonal runs that read them
** once every straight entry is final. */
ASTAR_INLINE jump_flips walk_straight(astar_grid *gr, int32_t c, int d) {
  const int32_t st = gr->off[0][d], sd = d < 2 ? gr->pw : 1;
  const unsigned char *b = gr->blocked; /* locals: the entries' stores */
  int8_t *e = gr->jump + d;             /* (int8_t) may alias gr's fields */
  jump_flips f = {0, 0};
  int32_t last = c;
  int8_t v = e[(ptrdiff_t)(c + st) * 8]; /* the next cell's entry: the last set */
  for (;; c -= st) {
    int8_t was = e[(ptrdiff_t)c * 8];
    v = jump_cap(straight_raw(b, c, st, sd, v));
    if (v == was) break;
    e[(ptrdiff_t)c * 8] = v;
    if ((v > 0) != (was > 0)) {
      if (f.n == 0) f.first = c, f.n = 1;
      last = c;
    }
  }
  if (f.n) f.n = (f.first - last) / st + 1;
  return f;
}

static jump_flips fix_straight(astar_grid *gr, int32_t c, int d) {
  switch (d) {
    case 0: return walk_straight(gr, c, 0);
    case 1: return walk_straight(gr, c, 1);
    case 2: return walk_straight(gr, c, 2);
    default: return walk_straight(gr, c, 3);
  }
}

/* The diagonal runs in direction r that read the straight entries of run
** d's cells f: one walk from each, the next cell's column stepped along
** (no division a walk). */
static void fix_readers(astar_grid *gr, int r, int d, jump_flips f) {
  const int32_t st = gr->off[0][d], sx = jdx[d];
  int32_t c = f.first - gr->off[0][r], nx = c % gr->pw + jdx[r], i;
  for (i = 0; i < f.n; i++, c -= st, nx -= sx) {
    switch (r) { /* one walk per direction, its offsets constants */
      case 4: walk_diagonal(gr, c, (uint32_t)nx, 4); break;
      case 5: walk_diagonal(gr, c, (uint32_t)nx, 5); break;
      case 6: walk_diagonal(gr, c, (uint32_t)nx, 6); break;
      default: walk_diagonal(gr, c, (uint32_t)nx, 7); break;
    }
  }
}

/*
** After the blocked bit of (x, y) changed (and the move masks around it):
** the entries whose inputs changed are those of the cell itself, of the
** cells before it on its runs and, for the forced-neighbour test, of the
** two cells on each side line (beside it and before that); the diagonal
** entries of its 3 x 3 block read its move masks.  Each is recomputed and
** walked back along its run while it changes: the straight runs first,
** then the diagonal runs that read a straight entry whose sign changed,
** then the block's, so each diagonal walk reads final straight entries.
** The order does not matter for the result: a walk recomputes every entry
** from its inputs as they are, and any later change of an input walks back
** over it again.
*/
void astar__jump_update(astar_grid *gr, int32_t x, int32_t y) {
  int32_t p = LAT_CELL(gr, x, y), pw = gr->pw, dx, dy;
  jump_flips f[4][6];
  int d, k, r, i, q;
  for (d = 0; d < 4; d++) {
    int32_t st = gr->off[0][d], sd = d < 2 ? pw : 1;
    f[d][0] = fix_straight(gr, p, d);
    f[d][1] = fix_straight(gr, p - st, d);
    f[d][2] = fix_straight(gr, p + sd, d);
    f[d][3] = fix_straight(gr, p - sd, d);
    f[d][4] = fix_straight(gr, p + sd - st, d);
    f[d][5] = fix_straight(gr, p - sd - st, d);
  }
  for (r = 4; r < 8; r++) {
    /* the lines of runs in the order of r's runs, the furthest on first
    ** (on: the side line at +sd, f[q][2] and [4], then the edit's own, then
    ** the one at -sd; back: the reverse), so a walk from a line further
    ** back stops where the earlier walks already set its entries (an
    ** opened cell's walks do not stop at a jump point: walked in the other
    ** order they went over the same diagonals twice) */
    static const unsigned char on[6] = {2, 4, 0, 1, 3, 5}, back[6] = {3, 5, 0, 1, 2, 4};
    for (k = 0; k < 2; k++) { /* r reads the straight entries q */
      const unsigned char *ord;
      q = k == 0 ? (jdx[r] > 0 ? 0 : 1) : (jdy[r] > 0 ? 2 : 3);
      ord = (q < 2 ? jdy[r] : jdx[r]) > 0 ? on : back;
      for (i = 0; i < 6; i++)
        if (f[q][ord[i]].n) fix_readers(gr, r, q, f[q][ord[i]]);
    }
  }
  for (dy = -1; dy <= 1; dy++)
    for (dx = -1; dx <= 1; dx++)
      for (d = 4; d < 8; d++) fix_diagonal(gr, p + dy * pw + dx, d);
}

/* ------------------------------------------------------------------------ */
/* the search                                                                 */
/* ------------------------------------------------------------------------ */

/* The table's own conditions, for a query JPS serves (search.c asks JPS's
** refusal first, once). */
const char *astar__jump_refusal(const astar_topology *t, const astar_query *q) {
  const astar_grid *gr = CGRID(t);
  if (gr->rule != ASTAR_DIAG_NO_CORNER_CUTTING) return "diagonal rule never";
  if (q->size > 1) return "unit size above 1";
  if (gr->jump == NULL) return "no jump table";
  return NULL;
}

/* An escaped run (e[d] is +-JUMP_ESC), the goal t steps on along it (t <= 0:
** not on it): the steps to what it offers, as jump_to.  Each escape goes
** on JUMP_RUN cells, open and no jump point. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int32_t
jump_far(const int8_t *e, int d, int32_t st, int32_t t) {
  int32_t v = e[d], base = 0;
  while ((uint32_t)(v + JUMP_RUN) > 2u * JUMP_RUN) { /* +-JUMP_ESC */
    if (t > base && t <= base + JUMP_RUN) return t;
    if (v < 0 && t <= base) return 0;
    base += JUMP_RUN;
    e += (ptrdiff_t)st * (8 * JUMP_RUN);
    v = e[d];
  }
  if (t > base && t - base <= (v < 0 ? -v : v)) return t;
  return v > 0 ? base + v : 0;
}

/* The straight run from a padded cell in direction d (0..3) by the table
** (e: the cell's entries; st: d's step), with the goal t steps on along it
** (t <= 0: not on it): the steps to what it offers, the goal when it lies
** on the run before any jump point, else the jump point; 0 for nothing.
** The caller finds t without a branch (jump_goal): the goal lies on a run
** from the cell's row or column only, and on a diagonal run's stops only
** where the run crosses the goal's row or column. */
ASTAR_INLINE int32_t jump_to(const int8_t *e, int d, int32_t st, int32_t t) {
  int32_t v = e[d], reach, k;
  if (t <= 0) { /* mostly, and a constant at a diagonal run's stops: a -127 is then 0 */
    if (v <= 0) return 0;
    if (ASTAR_UNLIKELY(v == JUMP_ESC)) return jump_far(e, d, st, t);
    return v;
  }
  k = v > 0 ? v : 0;
  reach = v < 0 ? -v : v;
  if (ASTAR_UNLIKELY(reach == JUMP_ESC)) return jump_far(e, d, st, t);
  return (uint32_t)t - 1u < (uint32_t)reach ? t : k;
}

/* The goal's steps along the straight run from cell (x, y) whose unit
** step is (sx, sy), one of them 0: the steps when the goal (gx, gy) lies
** on the run's line, else 0 or less.  Without a goal, gx and gy are -1,
** which no cell's coordinate equals. */
ASTAR_INLINE int32_t jump_goal(int32_t x, int32_t y, int32_t sx, int32_t sy, int32_t gx,
                               int32_t gy) {
  return sy == 0 ? (y == gy ? (gx - x) * sx : 0) : (x == gx ? (gy - y) * sy : 0);
}

/* Out of line and seldom run. */
#if defined(__GNUC__)
#define PCOLD __attribute__((noinline, cold))
#else
#define PCOLD
#endif

/* An expansion's successors, relaxed together once its runs are read (their
** node states prefetched meanwhile: the entry at home, their probes' first
** in the slot table, which the relaxation then probes from). */
#define PBUF 32
typedef struct pbuf {
  int n;
  int32_t q[PBUF], x[PBUF], y[PBUF];
  uint32_t home[PBUF];
  double g[PBUF];
} pbuf;

/* The buffer's homes, after the slot table grew (slot_home changed). */
PCOLD static int pbuf_rehome(astar_search *s, pbuf *B) {
  int i;
  while (s->nslots + B->n > s->slot_room)
    if (astar__slot_grow(s) != ASTAR_OK) return ASTAR_ENOMEM;
  for (i = 0; i < B->n; i++) B->home[i] = (uint32_t)slot_home(s, B->q[i]);
  return ASTAR_OK;
}

/* Relaxes the buffer's offers.  The slot table first gets room for all of
** them, as if all were new (an earlier growth than one by one, never a
** later one), so the homes stay valid through the loop. */
ASTAR_INLINE int pflush(astar_search *s, pbuf *B, int32_t p, int mode) {
  int32_t w = CGRID(s->topo)->w;
  int i, rc;
  if (ASTAR_UNLIKELY(s->nslots + B->n > s->slot_room) && pbuf_rehome(s, B) != ASTAR_OK)
    return ASTAR_ENOMEM;
  for (i = 0; i < B->n; i++) {
    rc = relax_at(s, B->q[i], B->home[i], 1, (mode & 1) ? 0 : B->y[i] * w + B->x[i], p, B->g[i],
                  0, B->x[i], B->y[i], mode & 1, ASTAR_ENGINE_SPARSE, mode >> 1 & 1,
                  (mode & 4) ? lat_h_octile : lat_h_plane);
    if (rc != ASTAR_OK) return rc;
  }
  B->n = 0;
  return ASTAR_OK;
}

/* pflush of a full buffer, out of line: every offer site would otherwise
** carry its own copy of the relaxation (one per mode, each folded). */
PCOLD static int pflush0(astar_search *s, pbuf *B, int32_t p) { return pflush(s, B, p, 0); }
PCOLD static int pflush1(astar_search *s, pbuf *B, int32_t p) { return pflush(s, B, p, 1); }
PCOLD static int pflush2(astar_search *s, pbuf *B, int32_t p) { return pflush(s, B, p, 2); }
PCOLD static int pflush3(astar_search *s, pbuf *B, int32_t p) { return pflush(s, B, p, 3); }
PCOLD static int pflush5(astar_search *s, pbuf *B, int32_t p) { return pflush(s, B, p, 5); }
PCOLD static int pflush7(astar_search *s, pbuf *B, int32_t p) { return pflush(s, B, p, 7); }

/* Offers padded cell q, the cell (x, y) (its coordinates, not padded: so
** are every (x, y) of the search below), at cost g. */
ASTAR_INLINE int poffer(astar_search *s, pbuf *B, int32_t p, int mode, int32_t q, int32_t x,
                        int32_t y, double g) {
  size_t home = slot_home(s, q);
  ASTAR_PREFETCH(&s->slots[home]); /* node_prefetch */
  B->home[B->n] = (uint32_t)home;
  B->q[B->n] = q;
  B->x[B->n] = x;
  B->y[B->n] = y;
  B->g[B->n++] = g;
  if (ASTAR_UNLIKELY(B->n == PBUF))
    return mode == 0 ? pflush0(s, B, p) : mode == 1 ? pflush1(s, B, p)
                                      : mode == 2   ? pflush2(s, B, p)
                                      : mode == 3   ? pflush3(s, B, p)
                                      : mode == 5   ? pflush5(s, B, p)
                                                    : pflush7(s, B, p);
  return ASTAR_OK;
}

/* A diagonal run's stop c = (x, y), reached at cost gc: what the straight
** runs along the diagonal d's components find (th, tv: the goal's steps
** along them, as jump_to). */
ASTAR_INLINE int pstop(astar_search *s, pbuf *B, const astar_grid *gr, int32_t p, int mode, int d,
                       int32_t c, int32_t x, int32_t y, double gc, int32_t th, int32_t tv) {
  const int h = jdx[d] > 0 ? 0 : 1, v = jdy[d] > 0 ? 2 : 3;
  int32_t k;
  int rc;
  if ((k = jump_to(&JT(gr, c, 0), h, gr->off[0][h], th)) != 0 &&
      (rc = poffer(s, B, p, mode, c + k * gr->off[0][h], x + k * jdx[d], y, gc + k)) != ASTAR_OK)
    return rc;
  if ((k = jump_to(&JT(gr, c, 0), v, gr->off[0][v], tv)) != 0)
    return poffer(s, B, p, mode, c + k * gr->off[0][v], x, y + k * jdy[d], gc + k);
  return ASTAR_OK;
}

/*
** The diagonal run from p = (px, py) (reached at cost g) in direction d,
** from one stop to the next by the table: the stops are the diagonal jump
** points and the cell where the run crosses the goal's row or column; at
** each, the straight runs along d's components are read (jump_to) and
** what they find is offered, as jps.c's diag_run offers it (the diagonal
** cells are no nodes); a waypoint (JUMP_WP) only moves the run on.  The
** goal on the run is offered and ends it.
*/
ASTAR_INLINE int pdiag(astar_search *s, pbuf *B, const astar_grid *gr, int32_t p, int32_t px,
                       int32_t py, double g, int d, int32_t gx, int32_t gy, int mode) {
  const int32_t step = gr->off[0][d], sx = jdx[d], sy = jdy[d];
  int32_t c = p, i = 0, r = 0, dx = gx - px, dy = gy - py;
  int rc;
  /* r: the steps on to where the run crosses the goal's row or column, the
  ** one stop where the goal can lie on a straight run (0 or less: none);
  ** a stop i steps on is (px + i sx, py + i sy), taken there */
  if (gx >= 0 && dx * sx > 0 && dy * sy > 0) r = dx * sx < dy * sy ? dx * sx : dy * sy;
  for (;;) {
    int32_t e = JT(gr, c, d), t = e > 0 ? e & (JUMP_WP - 1) : -e;
    if (ASTAR_UNLIKELY((uint32_t)r - 1u < (uint32_t)t)) { /* that crossing first */
      int32_t x, y;
      c += r * step;
      i += r;
      r = 0;
      x = px + i * sx;
      y = py + i * sy;
      if (x == gx && y == gy) return poffer(s, B, p, mode, c, x, y, g + i * ASTAR_GRID_DIAG);
      if ((rc = pstop(s, B, gr, p, mode, d, c, x, y, g + i * ASTAR_GRID_DIAG,
                      jump_goal(x, y, sx, 0, gx, gy), jump_goal(x, y, 0, sy, gx, gy))) !=
          ASTAR_OK)
        return rc;
      continue;
    }
    if (e <= 0) return ASTAR_OK; /* a wall, and nothing on the way */
    c += t * step;
    i += t;
    r -= t;
#if defined(__GNUC__)
    { /* the next stop's line, while this stop's offers are made (none
      ** after a wall: the walk ends there) */
      int32_t e2 = JT(gr, c, d);
      __builtin_prefetch(
          &JT(gr, c + (e2 & (JUMP_WP - 1) & ((int32_t)((uint32_t)e2 >> 31) - 1)) * step, 0));
    }
#endif
    if (e & JUMP_WP) continue; /* a waypoint: its straight runs find nothing */
    if ((rc = pstop(s, B, gr, p, mode, d, c, px + i * sx, py + i * sy, g + i * ASTAR_GRID_DIAG, 0,
                    0)) != ASTAR_OK)
      return rc;
  }
}

/* jps.h's dirs8 masked by p's move mask mv, from mv alone (no corner
** read in the blocked bits).  A straight arrival came through the cell
** behind p, so it is open: with a side cell open, the corner behind it is
** blocked exactly when mv forbids the diagonal step into that corner; with
** the side cell blocked, mv drops the turn and its diagonal anyway. */
ASTAR_INLINE unsigned plus_dirs(unsigned mv, int d) {
  unsigned r;
  switch (d) {
    case 0: /* E: N when NW is blocked, S when SW is */
      r = 1u << 0 | (mv >> 7 & 1u ? 0u : 1u << 3 | 1u << 5) | (mv >> 6 & 1u ? 0u : 1u << 2 | 1u << 4);
      break;
    case 1: /* W: N when NE is, S when SE is */
      r = 1u << 1 | (mv >> 5 & 1u ? 0u : 1u << 3 | 1u << 7) | (mv >> 4 & 1u ? 0u : 1u << 2 | 1u << 6);
      break;
    case 2: /* S: E when NE is, W when NW is */
      r = 1u << 2 | (mv >> 5 & 1u ? 0u : 1u << 0 | 1u << 4) | (mv >> 7 & 1u ? 0u : 1u << 1 | 1u << 6);
      break;
    case 3: /* N: E when SE is, W when SW is */
      r = 1u << 3 | (mv >> 4 & 1u ? 0u : 1u << 0 | 1u << 5) | (mv >> 6 & 1u ? 0u : 1u << 1 | 1u << 7);
      break;
    case 4: r = 1u << 4 | 1u << 0 | 1u << 2; break; /* a diagonal: it and its components */
    case 5: r = 1u << 5 | 1u << 0 | 1u << 3; break;
    case 6: r = 1u << 6 | 1u << 1 | 1u << 2; break;
    default: r = 1u << 7 | 1u << 1 | 1u << 3; break;
  }
  return r & mv;
}

/* The straight run from p = (px, py) (reached at cost g) in direction d:
** what it offers. */
ASTAR_INLINE int pstraight(astar_search *s, pbuf *B, const astar_grid *gr, int32_t p, int32_t px,
                           int32_t py, double g, int d, int32_t gx, int32_t gy, int mode) {
  const int32_t st = gr->off[0][d];
  int32_t k = jump_to(&JT(gr, p, 0), d, st, jump_goal(px, py, jdx[d], jdy[d], gx, gy));
  if (k == 0) return ASTAR_OK;
  return poffer(s, B, p, mode, p + k * st, px + k * jdx[d], py + k * jdy[d], g + k);
}

/* The start's expansion with the goal in sight (jps.h's goal-visible test,
** which the online search makes at every expansion): the run to the goal
** costs the octile distance, no path costs less, and the goal is offered
** alone.  Returns 0 when the goal is not in sight (or the heuristic is a
** callback, whose h of the goal is checked when the goal is relaxed from
** the reads); else 1, the offer's status in *rc.  Out of line: once a
** query.  The test walks the diagonal part cell by cell, so it is made
** only where that part is at most START_SEES_DIAG cells (the straight part
** is read a word at a time): a longer one costs a query more than it saves,
** and the table's runs find such a goal in a few expansions anyway. */
#define START_SEES_DIAG 32
PCOLD static int start_sees_goal(astar_search *s, int32_t p, int32_t px, int32_t py, int32_t gx,
                                 int32_t gy, unsigned m, int mode, int *rc) {
  const astar_grid *gr = CGRID(s->topo);
  double run;
  pbuf B;
  int32_t ax = gx > px ? gx - px : px - gx, ay = gy > py ? gy - py : py - gy;
  if (s->q.heuristic == ASTAR_H_CALLBACK || (ax < ay ? ax : ay) > START_SEES_DIAG ||
      (run = jps_goal_run(gr, p, px + 1, py + 1, gx + 1, gy + 1, m)) < 0)
    return 0;
  B.n = 0;
  *rc = poffer(s, &B, p, mode, s->goal, gx, gy, node_at(s, p)->g + run);
  if (*rc == ASTAR_OK) *rc = pflush(s, &B, p, mode);
  return 1;
}

/* The move mask of open padded cell c, from its table line (which the
** expansion reads anyway) instead of gr->moves (another line, a miss for a
** node the heap returns): an entry is 0 exactly where the step is not
** allowed -- a straight one where the next cell is blocked, a diagonal one
** where the rule forbids the step (diagonal_entry) -- and nonzero
** elsewhere.  The 8 bytes' nonzero flags, gathered into 8 bits by a
** multiplication (entry d at byte d of the word on a little-endian machine,
** at byte 7 - d on a big-endian one); in *found, those of the entries
** above 0. */
ASTAR_INLINE unsigned plus_moves(const int8_t *e, unsigned *found) {
  static const union {
    uint32_t u;
    unsigned char c[4];
  } one = {1};
  const uint64_t lo = 0x7f7f7f7f7f7f7f7full, b0 = 0x0101010101010101ull;
  const uint64_t gather = one.c[0] ? 0x0102040810204080ull : 0x8040201008040201ull;
  uint64_t x, t;
  memcpy(&x, e, sizeof x);
  t = ((((x & lo) + lo) | x) >> 7) & b0; /* byte: 1 when nonzero */
  *found = (unsigned)(((t & ~(x >> 7)) * gather) >> 56);
  return (unsigned)((t * gather) >> 56);
}

ASTAR_INLINE int expand_plus(astar_search *s, int32_t p, int mode) {
  const astar_grid *gr = CGRID(s->topo);
  /* coordinates from here on are the cell's own, not padded: the offers
  ** keep them so (the relaxation's estimate takes them) */
  int32_t pw = gr->pw, py = p / pw, px = p - py * pw - 1, par = *parent_at(s, p);
  int32_t gx = -1, gy = -1;
  double g = node_at(s, p)->g;
  pbuf B;
  unsigned m, found;
  int rc;
  B.n = 0;
  if (s->goal >= 0) {
    gx = (int32_t)s->gx;
    gy = (int32_t)s->gy;
  }
  py--;
  if (par < 0) {
    m = plus_moves(&JT(gr, p, 0), &found);
    if (gx >= 0 && start_sees_goal(s, p, px, py, gx, gy, m, mode, &rc)) return rc;
  } else {
    int32_t ay = par / pw;
    m = plus_dirs(plus_moves(&JT(gr, p, 0), &found), arrival(par - ay * pw - 1, ay - 1, px, py));
  }
  /* a straight run is read only where its entry finds a jump point (> 0,
  ** +JUMP_ESC included) or the goal is on its line (jump_to): 87-93% of
  ** the straight runs of the game maps' middle queries find nothing */
  if (ASTAR_UNLIKELY(py == gy || px == gx)) found = 0xfu;
  m &= found | 0xf0u;
  /* one copy per direction: its steps and components are constants there */
#define PLUS_DIR(run, d) \
  if (((m >> (d)) & 1u) && (rc = run(s, &B, gr, p, px, py, g, d, gx, gy, mode)) != ASTAR_OK) \
  return rc
  PLUS_DIR(pstraight, 0);
  PLUS_DIR(pstraight, 1);
  PLUS_DIR(pstraight, 2);
  PLUS_DIR(pstraight, 3);
  PLUS_DIR(pdiag, 4);
  PLUS_DIR(pdiag, 5);
  PLUS_DIR(pdiag, 6);
  PLUS_DIR(pdiag, 7);
#undef PLUS_DIR
  if ((rc = pflush(s, &B, p, mode)) != ASTAR_OK) return rc;
#if defined(__GNUC__)
  if (s->next.node >= 0) /* the bypass slot's node, mostly the next one expanded */
    __builtin_prefetch(&JT(gr, s->slots[s->next.node].node, 0));
#endif
  return ASTAR_OK;
}

/* mode: bit 0, the fast path's instantiation (plain, see relax_in); bit 1,
** the open list is a lazy heap (s->lazy); bit 2 (plain only), the heuristic
** is octile (lat_h_octile: no switch a relaxation). */
static int expand_plus_general(astar_search *s, int32_t p) { return expand_plus(s, p, 0); }
ASTAR_INLINE int expand_plus_plain(astar_search *s, int32_t p) { return expand_plus(s, p, 1); }
static int expand_lazy_general(astar_search *s, int32_t p) { return expand_plus(s, p, 2); }
ASTAR_INLINE int expand_lazy_plain(astar_search *s, int32_t p) { return expand_plus(s, p, 3); }
ASTAR_INLINE int expand_octile_plain(astar_search *s, int32_t p) { return expand_plus(s, p, 5); }
ASTAR_INLINE int expand_lazy_octile(astar_search *s, int32_t p) { return expand_plus(s, p, 7); }

/* The table may have been dropped between two steps of a query (a step
** holds the grid's lock, so never during one): the query goes on as JPS.
** Its nodes are jump points with their parents as JPS keeps them, and an
** expansion's successors depend only on the node and its arrival, so JPS
** takes over the open list as it is. */
static void hand_over(astar_search *s) {
  if (s->lazy) heap_index(s); /* JPS's loops keep an indexed heap */
  s->lazy = 0;
}

int astar__jump_run(astar_search *s, uint64_t n) {
  if (CGRID(s->topo)->jump == NULL) {
    hand_over(s);
    return (s->run = s->ops->jps->run)(s, n);
  }
  if (s->lazy) return search_loop_in(s, n, expand_lazy_general, HEAP_LAZY, 0);
  return search_loop(s, n, expand_plus_general);
}
int astar__jump_run_plain(astar_search *s, uint64_t n) {
  if (CGRID(s->topo)->jump == NULL) {
    hand_over(s);
    return (s->run = s->ops->jps->run_plain)(s, n);
  }
  if (s->q.heuristic == ASTAR_H_OCTILE) {
    if (s->lazy) return search_loop_in(s, n, expand_lazy_octile, HEAP_LAZY, 1);
    return search_loop_in(s, n, expand_octile_plain, HEAP_OPEN, 1);
  }
  if (s->lazy) return search_loop_in(s, n, expand_lazy_plain, HEAP_LAZY, 1);
  return search_loop_in(s, n, expand_plus_plain, HEAP_OPEN, 1);
}

/* ------------------------------------------------------------------------ */
/* batches                                                                    */
/* ------------------------------------------------------------------------ */

/* A blocked-bit edit inside a batch (astar_grid_edits_begin): its repair
** waits for the batch's end, where every cell is as the batch leaves it.
** Called before the edit's line is logged, so the first waiting cell's line
** is the next one. */
void astar__jump_defer(astar_grid *gr) {
  if (gr->jump_pending++ == 0) gr->jump_log0 = gr->log_n;
}

/*
** The end of a batch (astar_grid_edits_end, in the same call): each cell the
** batch logged is repaired as a single edit would be, now that every input
** is final -- a run that several cells of the batch cut (a wall drawn along
** a row) is walked once, not once per cell, since a walk stops at the
** entries an earlier walk already set.  When the log does not hold the
** batch's lines (no log, or more lines than it keeps) the table is built
** again; "auto"'s choice stays the one of the table's build.
*/
void astar__jump_flush(astar_grid *gr) {
  size_t i, n = gr->log_n - gr->jump_log0; /* a log restarted: n wraps, > cap */
  gr->jump_pending = 0;
  if (gr->jump == NULL) return;
  if (gr->log_cap == 0 || n > gr->log_cap) {
    int keep = gr->jump_auto;
    build(gr);
    gr->jump_auto = keep;
    return;
  }
  for (i = gr->jump_log0; i < gr->log_n; i++) {
    int32_t cell = gr->log[i % gr->log_cap].cell;
    astar__jump_update(gr, cell % gr->w, cell / gr->w);
  }
}
