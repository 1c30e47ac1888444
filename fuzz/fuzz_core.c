/*
** fuzz_core.c -- libFuzzer harness for the C core (no Lua).
**
** The input bytes are decoded into a topology -- a graph, a square grid
** under one of the four diagonal rules, or a hex grid in one of the four
** layouts -- and what the topology can do is exercised through the public
** API and checked against oracles written here, by brute force, from the
** documented rules (astar.h), never by asking the code under test.
** Numbers are often tame (so searches find paths) and sometimes raw double
** bits (NaN, infinities, -0, denormals, huge values); ids, enums and sizes
** are sometimes out of range on purpose.  Searches run time-sliced.
**
** Two input formats share the checks:
**   - first byte < 0x80, the old format (the seeds written before the
**     lattice decode as they did): odd, a square grid; else with bit 1, a
**     hex grid; else a graph; then a fixed run of queries, distances, sized
**     units (square grids) and tables, checked as below;
**   - first byte >= 0x80, the lattice format (fuzz/make_seeds.lua writes the
**     seeds of every topology and mode in it):
**     (byte & 0x7f) % 9 picks the topology (0 graph, 1..4 square grid with
**     rule 0..3, 5..8 hex grid with layout 0..3); a two-byte length and that
**     many bytes build it; then up to 16 operations, each an op byte, a
**     length byte and its own bytes (so an op never shifts the next).  The
**     op asks astar_topology_abilities before using an ability, and checks
**     that a topology lacking it refuses (EINVAL) where the API says so.
**
** The harness keeps its own record of every cell and edge it set (edits go
** through it, and the getters are checked against it).  The oracles:
**   - cells: the unit of size k (square: the k x k block at its top-left
**     cell; hex: the cells within k - 1 steps, by the guide's axial
**     coordinates), whether it fits (inside, open, not forbidden by the
**     forbid field or a tag factor), the move rule (neighbours found by
**     coordinates; the diagonal rule read on the units at the side
**     positions), a step's cost (the dearest cell of the unit entered), and
**     Dijkstra over all of it, forwards and backwards, from any sources;
**   - graphs: Dijkstra over the edges as added, with the query's tag
**     factors, penalty, forbid field and cost callback;
**   - segments (square grids): the cells a segment between two centres
**     crosses, each clipped exactly in rational arithmetic, the length in
**     each, the corners it passes, in order along it; its cost, passage,
**     or the cell whose rate is bad;
**   - hex line of sight: the points i/n of the way, the cells holding each
**     (nearest centres, in integers), blocked where all of them are.
** Checked:
**   - a bad input is refused with a status, never a crash; begin refuses
**     exactly the queries astar.h calls invalid (heuristic the shape does
**     not take, size, weight, factors, algorithm, jps where it cannot
**     serve: the refusal reasons recomputed here);
**   - a found path is a chain of allowed steps from start to goal, the unit
**     fits at every cell, each link names its step, astar_grid_step_fault
**     calls every step OK, and the step costs recomputed here sum exactly
**     to the reported cost; it never costs less than the oracle's optimum,
**     stop = optimal costs exactly that, max_cost and the budgets end the
**     search as documented; unreachable agrees with the oracle (graphs:
**     also stop = optimal against stop = expand and a Dijkstra search);
**   - sized units on both shapes (every mode: forward, reverse distance
**     fields), jump point search (refused exactly where astar_jps_refusal's
**     rules say; else the same answers as A* and the oracle);
**   - distance searches (forward, reverse, several sources, max_cost,
**     sized): every cell's cost equals the oracle's exactly, and every link
**     is an allowed step whose cost plus the next cell's is exactly its own;
**   - field repair (both shapes): a field, edits with the change log on,
**     astar_grid_changes, astar_grid_repair_distances, in rounds: every
**     cell equal to a fresh distance search's, exactly (and the oracle's);
**   - clearance (both shapes) against a brute-force scan after edits; line
**     of sight against its oracle (and symmetric), the sized line of sight
**     as every cell of the unit seeing its counterpart, visible_from,
**     neighbours in direction order, hex distances and coordinates,
**     component labels;
**   - segments, smoothing, Theta* (square grids): segment costs, passage
**     and ECOST cells as the oracle says, the walker's cells and lengths;
**     smoothing keeps the ends, keeps only passable shortcuts and never
**     raises the path's cost; Theta*'s path starts and ends right, its
**     segments pass and sum to its cost, no cheaper than the smallest rate
**     times the straight line, and it reaches what A* reaches (rules that
**     let a segment through every allowed step);
**   - astar_grid_step_fault against the rule recomputed here (fault and
**     blamed cell), and reachability by its OK steps equal to the search's;
**   - a cell whose tag's factor forbids is a forbidden cell: the same query
**     with the cell forbidden either way gives the same answers (paths,
**     statistics, fields, faults, segments, smoothing, Theta*);
**   - the jump table (JPS+): built exactly on no_corner_cutting grids,
**     equal to a fresh build after every edit (single or as one change),
**     queries under ASTAR_ALGO_JPS_PLUS refused exactly where astar.h says,
**     else answering as A* and the oracle;
**   - edits as one change (astar_grid_edits_begin/_end, nested): one
**     version when anything changed, none otherwise; connected and
**     would_disconnect against reachability recomputed here, the latter
**     changing nothing (not the version);
**   - precomputed tables (landmarks, clusters) never overestimate, guide
**     A* to Dijkstra's cost, and the audit finds no overestimate;
**   - query repair (grids and graphs, paths and distance searches): a
**     search stepped part way, edits (grids: blocked, cost, tag; graphs:
**     enabled, cost, a new edge), the change log read back and
**     astar_search_repair: ESTATE on a finished search, EINVAL where astar.h
**     says (grids: the query's kind; a bad id), after which beginning again
**     works; after OK the search ends with a fresh search's status and
**     costs (a path's exactly when the fresh one's is the oracle's optimum,
**     a field's every cell exactly);
**   - a search or Theta* begun before an edit refuses to step (ECHANGED); a
**     locked topology refuses edits (EBUSY).
** Any violation aborts (a crash libFuzzer reports with the input).
**
** make build/fuzz/fuzz_core builds it with the core (CORE_SRC and LIBS of
** src/sources.mk):
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc fuzz/fuzz_core.c <CORE_SRC> <LIBS> \
**         -o build/fuzz/fuzz_core
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"

/* A cursor over the input; reads past the end give zeros. */
typedef struct input {
  const uint8_t *p;
  size_t n;
} input;

static uint8_t u8(input *in) {
  uint8_t v = 0;
  if (in->n) {
    v = *in->p++;
    in->n--;
  }
  return v;
}

static uint32_t u32(input *in) {
  uint32_t v = 0;
  int i;
  for (i = 0; i < 4; i++) v = v << 8 | u8(in);
  return v;
}

/* Any double, often a tame one: the tame ones let searches find paths. */
static double dbl(input *in) {
  uint8_t mode = u8(in);
  if (mode < 200) return (double)(mode % 20);            /* small costs */
  if (mode < 230) return (double)u8(in) / 16.0;
  {
    uint64_t bits = 0;
    double d;
    int i;
    for (i = 0; i < 8; i++) bits = bits << 8 | u8(in);
    memcpy(&d, &bits, sizeof d);
    return d;                                            /* anything */
  }
}

/* The next len bytes (fewer at the end of the input) as a cursor of their
** own: an op reads only its chunk, so it never shifts the ops after it. */
static input chunk(input *in, size_t len) {
  input c;
  c.p = in->p;
  c.n = len < in->n ? len : in->n;
  in->p += c.n;
  in->n -= c.n;
  return c;
}

#define CHECK(c)                                                      \
  do {                                                                \
    if (!(c)) {                                                       \
      fprintf(stderr, "fuzz_core: invariant failed: %s (line %d)\n", #c, __LINE__); \
      abort();                                                        \
    }                                                                 \
  } while (0)

/* The oracles are plain brute force, kept out of the fuzzer's coverage
** (clang): it is then guided by the core alone, and they run at full speed. */
#if defined(__clang__)
#define ORACLE __attribute__((no_sanitize("coverage")))
#else
#define ORACLE
#endif

/* Callback values come from a table filled from the input, indexed by node
** or edge, so a run is deterministic and the checker can recompute them. */
typedef struct cbctx {
  double h[64];
  double c[256];
  int abort_at;          /* abort (return non-zero) on this call; -1 never */
  int calls;
} cbctx;

static int fuzz_h(void *ctx, int32_t node, int32_t goal, double *h) {
  cbctx *c = (cbctx *)ctx;
  (void)goal;
  if (c->calls++ == c->abort_at) return 1;
  *h = c->h[(uint32_t)node % 64];
  return 0;
}

static int fuzz_cost(void *ctx, int32_t from, int32_t to, int32_t edge,
                     double cost, double *out) {
  cbctx *c = (cbctx *)ctx;
  double v = c->c[(uint32_t)edge % 256];
  (void)from;
  (void)to;
  if (c->calls++ == c->abort_at) return 1;
  /* a negative table value means "use the cost as given" */
  *out = v < 0 ? cost : v;
  return 0;
}

/* Errors the data may cause (a fuzzed callback value, a cost whose step or
** sum overflows, a penalty that makes a step negative): they make a result
** unknown, never wrong.  Any other error is a finding. */
static int data_error(int st) {
  CHECK(st >= 0 || st == ASTAR_ECOST || st == ASTAR_EOVERFLOW || st == ASTAR_ECALLBACK ||
        st == ASTAR_EHEURISTIC);
  return st < 0;
}

/* What every final status must come with: a name, the status kept, and
** an error report exactly after EHEURISTIC, ECOST and EOVERFLOW. */
static int finished(astar_search *s, int st) {
  int reported = st == ASTAR_EHEURISTIC || st == ASTAR_ECOST || st == ASTAR_EOVERFLOW;
  CHECK(st != ASTAR_SEARCHING);
  CHECK(astar_search_step(s, 1) == st); /* final statuses stick */
  CHECK(astar_search_status(s) == st);
  CHECK((astar_search_error(s)->cause != ASTAR_CAUSE_NONE) == reported);
  CHECK(astar_status_name(st) != NULL && astar_status_name(st)[0] != 0);
  return st;
}

/* Runs q to completion in slices the input sizes; returns the final status. */
static int run(astar_search *s, input *in) {
  int st = ASTAR_SEARCHING, guard = 0;
  while (st == ASTAR_SEARCHING && guard++ < 100000) st = astar_search_step(s, 1 + u8(in) % 8);
  return finished(s, st);
}

/* The same in one call, reading no input (checks added to the old format
** use it, so they leave its decoding as it was). */
static int run_all(astar_search *s) { return finished(s, astar_search_step(s, 0)); }

/* The same in slices of a size fixed up front (an op that reads more after
** a search knows where its bytes are). */
static int run_slices(astar_search *s, uint64_t slice) {
  int st = ASTAR_SEARCHING, guard = 0;
  while (st == ASTAR_SEARCHING && guard++ < 100000) st = astar_search_step(s, slice);
  return finished(s, st);
}

/* The tolerance of a cost comparison between two summation orders. */
static double tol(double d) { return 1e-9 * (1 + fabs(d)); }

/* ---- the world: a topology and the harness's record of it ---------------- */

enum { W_GRAPH, W_SQUARE, W_HEX };
#define MAXN 256 /* nodes or cells */
#define MAXE 160 /* graph edges */

typedef struct world {
  int shape;
  astar_graph *g;
  astar_grid *gr;
  astar_topology *t;
  unsigned abil;
  int32_t n, w, h;
  int rule, layout;
  /* cells as the harness set them; whether the grid has a cost layer (a
  ** cost other than 1 was set) and a tag layer (a tag other than 0) */
  unsigned char blk[MAXN];
  double cost[MAXN];
  int32_t tag[MAXN];
  int cost_layer, tag_layer;
  size_t log_cap; /* the change log's capacity (astar_grid_track_changes) */
  int jumps;      /* the grid holds a jump table (op_jumps built it) */
  /* graphs: nodes' enabled flags and the edges as added */
  unsigned char enabled[MAXN];
  int32_t ne, efrom[MAXE], eto[MAXE], etag[MAXE];
  double ecost[MAXE];
  /* the modifiers queries point at */
  double penalty[MAXN], forbid[MAXN], factors[4];
  cbctx cb;
  astar_search *s, *s2;
  astar_theta *th;
} world;

static void world_init(world *W, int shape) {
  memset(W, 0, sizeof *W);
  W->shape = shape;
  W->rule = W->layout = -1;
  W->cb.abort_at = -1;
  W->s = astar_search_new(NULL, NULL);
  W->s2 = astar_search_new(NULL, NULL);
  CHECK(W->s && W->s2);
}

/* A grid of the shape, all open; what astar.h says every grid is. */
static void world_grid(world *W, int shape, int32_t w, int32_t h, int mode) {
  int32_t i;
  world_init(W, shape);
  W->w = w;
  W->h = h;
  W->n = w * h;
  if (shape == W_SQUARE) {
    W->gr = astar_grid_new(w, h, mode, NULL, NULL);
    W->rule = mode;
  } else {
    W->gr = astar_hex_new(w, h, mode, NULL, NULL);
    W->layout = mode;
  }
  CHECK(W->gr != NULL);
  W->t = astar_grid_topology(W->gr);
  W->abil = astar_topology_abilities(W->t);
  for (i = 0; i < MAXN; i++) W->cost[i] = 1.0;
  for (i = 0; i < 64; i++) W->cb.h[i] = (double)(i % 5);
  CHECK(astar_topology_grid(W->t) == W->gr);
  CHECK(astar_topology_node_count(W->t) == W->n);
  CHECK((W->abil & (ASTAR_CAN_CELLS | ASTAR_CAN_UNITS | ASTAR_CAN_REPAIR)) ==
        (ASTAR_CAN_CELLS | ASTAR_CAN_UNITS | ASTAR_CAN_REPAIR));
  CHECK(astar_topology_max_size(W->t) == ASTAR_MAX_UNIT);
  CHECK(astar_grid_width(W->gr) == w && astar_grid_height(W->gr) == h);
  CHECK(astar_grid_diagonal(W->gr) == (shape == W_SQUARE ? mode : ASTAR_EINVAL));
  CHECK(astar_hex_layout(W->gr) == (shape == W_HEX ? mode : ASTAR_EINVAL));
  CHECK(strcmp(astar_topology_kind(W->t), shape == W_HEX ? "hex" : "grid") == 0);
  CHECK(astar_topology_default_heuristic(W->t) ==
        (shape == W_HEX ? ASTAR_H_HEX
                        : mode == ASTAR_DIAG_NEVER ? ASTAR_H_MANHATTAN : ASTAR_H_OCTILE));
  CHECK(astar_topology_bytes(W->t) > 0 && astar_topology_version(W->t) == 0);
  CHECK(strcmp(astar_version(), ASTAR_VERSION) == 0);
}

static void world_free(world *W) {
  astar_search_free(W->s);
  astar_search_free(W->s2);
  astar_theta_free(W->th);
  astar_graph_free(W->g);
  astar_grid_free(W->gr);
}

static int cell_in(const world *W, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < W->w && y < W->h;
}

/* Edits, through the record: refused exactly when astar.h says. */
static void w_block(world *W, int32_t x, int32_t y, int b) {
  int rc = astar_grid_set_blocked(W->gr, x, y, b);
  if (!cell_in(W, x, y)) {
    CHECK(rc == ASTAR_EINVAL);
    return;
  }
  CHECK(rc == ASTAR_OK);
  W->blk[y * W->w + x] = b != 0;
}

static void w_cost(world *W, int32_t x, int32_t y, double c) {
  int rc = astar_grid_set_cost(W->gr, x, y, c);
  if (!cell_in(W, x, y) || !(c >= 0) || !isfinite(c)) {
    CHECK(rc == ASTAR_EINVAL);
    return;
  }
  CHECK(rc == ASTAR_OK);
  W->cost[y * W->w + x] = c;
  if (c != 1.0) W->cost_layer = 1;
}

static void w_tag(world *W, int32_t x, int32_t y, int32_t t) {
  int rc = astar_grid_set_tag(W->gr, x, y, t);
  if (!cell_in(W, x, y) || t < 0 || t > 65535) {
    CHECK(rc == ASTAR_EINVAL);
    return;
  }
  CHECK(rc == ASTAR_OK);
  W->tag[y * W->w + x] = t;
  if (t != 0) W->tag_layer = 1;
}

/* The grid's getters against the record. */
static void w_verify(const world *W) {
  int32_t x, y, t;
  double c;
  for (y = 0; y < W->h; y++)
    for (x = 0; x < W->w; x++) {
      CHECK(astar_grid_blocked(W->gr, x, y) == W->blk[y * W->w + x]);
      CHECK(astar_grid_cost(W->gr, x, y, &c) == ASTAR_OK && c == W->cost[y * W->w + x]);
      CHECK(astar_grid_tag(W->gr, x, y, &t) == ASTAR_OK && t == W->tag[y * W->w + x]);
      CHECK(astar_topology_passable(W->t, y * W->w + x) == !W->blk[y * W->w + x]);
    }
  for (t = 0; t < W->n; t += 7) { /* positions: square (x, y); hex the centres */
    double xyz[3], cx = t % W->w, cy = t / W->w;
    if (W->shape == W_HEX) astar_hex_center(W->layout, t % W->w, t / W->w, &cx, &cy);
    CHECK(astar_topology_position(W->t, t, xyz) == ASTAR_OK);
    CHECK(xyz[0] == cx && xyz[1] == cy && xyz[2] == 0);
  }
  CHECK(astar_grid_blocked(W->gr, W->w, 0) == ASTAR_EINVAL);
  CHECK(astar_topology_passable(W->t, W->n) == ASTAR_EINVAL);
}

/* ---- cell geometry, written out from astar.h and the hex guide ----------- */

/* Offset (x, y) to axial (q, r) in a hex layout, and back (Red Blob Games,
** "Hexagonal Grids"; x & 1 is the parity of negative numbers too). */
ORACLE
static void hex_axial(int layout, int32_t x, int32_t y, int32_t *q, int32_t *r) {
  switch (layout) {
    case ASTAR_HEX_ODD_R: *q = x - (y - (y & 1)) / 2; *r = y; break;
    case ASTAR_HEX_EVEN_R: *q = x - (y + (y & 1)) / 2; *r = y; break;
    case ASTAR_HEX_ODD_Q: *q = x; *r = y - (x - (x & 1)) / 2; break;
    default: *q = x; *r = y - (x + (x & 1)) / 2; break;
  }
}

ORACLE
static void hex_offset(int layout, int32_t q, int32_t r, int32_t *x, int32_t *y) {
  switch (layout) {
    case ASTAR_HEX_ODD_R: *x = q + (r - (r & 1)) / 2; *y = r; break;
    case ASTAR_HEX_EVEN_R: *x = q + (r + (r & 1)) / 2; *y = r; break;
    case ASTAR_HEX_ODD_Q: *x = q; *y = r + (q - (q & 1)) / 2; break;
    default: *x = q; *y = r + (q + (q & 1)) / 2; break;
  }
}

/* Steps between two hex cells (any coordinates). */
ORACLE
static int32_t hexd(const world *W, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t q0, r0, q1, r1, a, b, c;
  hex_axial(W->layout, x0, y0, &q0, &r0);
  hex_axial(W->layout, x1, y1, &q1, &r1);
  a = abs(q1 - q0);
  b = abs(r1 - r0);
  c = abs(q1 - q0 + r1 - r0);
  return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

/* Directions (astar.h): square E, W, S, N, SE, NE, SW, NW; hex the axial
** directions from east, counter-clockwise. */
static const int sq_dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int sq_dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const int hx_dq[6] = {1, 1, 0, -1, -1, 0};
static const int hx_dr[6] = {0, -1, -1, 0, 1, 1};

/* Whether direction d is the step from (x0, y0) to (x1, y1). */
ORACLE
static int dir_is(const world *W, int32_t d, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t q0, r0, q1, r1;
  if (W->shape == W_SQUARE) return d >= 0 && d < 8 && x1 - x0 == sq_dx[d] && y1 - y0 == sq_dy[d];
  hex_axial(W->layout, x0, y0, &q0, &r0);
  hex_axial(W->layout, x1, y1, &q1, &r1);
  return d >= 0 && d < 6 && q1 - q0 == hx_dq[d] && r1 - r0 == hx_dr[d];
}

/* 1: a straight step (square cardinal, any hex step); 2: a diagonal step
** the rule may take; 0: no step. */
ORACLE
static int step_kind(const world *W, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t dx = x1 - x0, dy = y1 - y0;
  if ((dx == 0 && dy == 0) || dx < -1 || dx > 1 || dy < -1 || dy > 1) return 0;
  if (W->shape == W_HEX) return hexd(W, x0, y0, x1, y1) == 1;
  if (dx && dy) return W->rule == ASTAR_DIAG_NEVER ? 0 : 2;
  return 1;
}

ORACLE
static int32_t unit_k(const astar_query *q) { return q && q->size > 1 ? q->size : 1; }

/* Whether cell (cx, cy) is one of the unit of size k at (x, y). */
ORACLE
static int in_unit(const world *W, int32_t k, int32_t x, int32_t y, int32_t cx, int32_t cy) {
  if (W->shape == W_HEX) return hexd(W, x, y, cx, cy) < k;
  return cx >= x && cy >= y && cx < x + k && cy < y + k;
}

/* The first column or row offset of a unit's cells (square: its top-left). */
ORACLE
static int32_t unit_lo(const world *W, int32_t k) { return W->shape == W_HEX ? 1 - k : 0; }

ORACLE
static int tag_forbids(const astar_query *q, int32_t tag) {
  return q && q->tag_factor && tag > 0 && tag < q->tag_count &&
         q->tag_factor[tag] == ASTAR_FORBID;
}

ORACLE
static int forbidden(const world *W, const astar_query *q, int32_t id) {
  return q && ((q->forbid && q->forbid[id] != 0) || tag_forbids(q, W->tag[id]));
}

/* Whether a unit of size k fits at (x, y): every cell inside, open and not
** forbidden to q (NULL: nothing is). */
ORACLE
static int fits_k(const world *W, const astar_query *q, int32_t k, int32_t x, int32_t y) {
  int32_t lo = unit_lo(W, k), cx, cy;
  for (cy = y + lo; cy < y + k; cy++)
    for (cx = x + lo; cx < x + k; cx++) {
      if (!in_unit(W, k, x, y, cx, cy)) continue;
      if (!cell_in(W, cx, cy) || W->blk[cy * W->w + cx] || forbidden(W, q, cy * W->w + cx))
        return 0;
    }
  return 1;
}

ORACLE
static int fits(const world *W, const astar_query *q, int32_t x, int32_t y) {
  return fits_k(W, q, unit_k(q), x, y);
}

/* The diagonal rule on whether the unit fits at the two side positions of
** a step of `kind` (a straight step needs neither). */
ORACLE
static int rule_allows(const world *W, int kind, int a, int b) {
  if (kind == 1 || W->rule == ASTAR_DIAG_ALWAYS) return 1;
  return W->rule == ASTAR_DIAG_NO_CORNER_CUTTING ? a && b : a || b;
}

/* The move rule: q's unit may step from (x0, y0) to (x1, y1) (it fits at
** both). */
ORACLE
static int may_step(const world *W, const astar_query *q, int32_t x0, int32_t y0,
                           int32_t x1, int32_t y1) {
  int kind = step_kind(W, x0, y0, x1, y1);
  if (!kind || !fits(W, q, x0, y0) || !fits(W, q, x1, y1)) return 0;
  return kind == 1 || rule_allows(W, kind, fits(W, q, x1, y0), fits(W, q, x0, y1));
}

/* The cost of q's unit entering the unit at (x, y) by a step of `kind`:
** the dearest of its cells, each length x cost x tag factor + penalty x
** scale, in that order (astar.h).  0 when a value is bad (not finite, or
** negative): the search may stop there with ECOST. */
ORACLE
static int enter_cost(const world *W, const astar_query *q, int kind, int32_t x, int32_t y,
                      double *c) {
  double len = kind == 2 ? ASTAR_GRID_DIAG : 1.0, most = 0;
  int32_t k = unit_k(q), lo = unit_lo(W, k), cx, cy;
  int first = 1;
  for (cy = y + lo; cy < y + k; cy++)
    for (cx = x + lo; cx < x + k; cx++) {
      int32_t id = cy * W->w + cx, t;
      double v;
      if (!in_unit(W, k, x, y, cx, cy)) continue;
      v = len * W->cost[id];
      if (!isfinite(v)) return 0;
      t = W->tag[id];
      if (q && q->tag_factor && t > 0 && t < q->tag_count) v *= q->tag_factor[t];
      if (!isfinite(v)) return 0;
      if (q && q->penalty) {
        v += q->penalty[id] * q->penalty_scale;
        if (!(v >= 0) || !isfinite(v)) return 0;
      }
      if (first || v > most) most = v;
      first = 0;
    }
  *c = most;
  return 1;
}

/* ---- oracles: Dijkstra on cells and on graphs ---------------------------- */

typedef struct field {
  double d[MAXN]; /* HUGE_VAL: unreached */
  int bad;        /* a step's cost was bad or a sum overflowed: a search may
                  ** stop with ECOST or EOVERFLOW, or have skipped it */
} field;

/* From every source q's unit fits at: forwards, the cost from the nearest
** source; reverse, the cost to it. */
ORACLE
static void cell_oracle(const world *W, const astar_query *q, const int32_t *src, int ns,
                        int reverse, field *f) {
  unsigned char done[MAXN], ok[MAXN]; /* ok: the unit fits at the cell */
  int32_t i;
  f->bad = 0;
  memset(done, 0, sizeof done);
  memset(ok, 0, sizeof ok);
  for (i = 0; i < W->n; i++) {
    f->d[i] = HUGE_VAL;
    ok[i] = (unsigned char)fits(W, q, i % W->w, i / W->w);
  }
  for (i = 0; i < ns; i++)
    if (src[i] >= 0 && src[i] < W->n && ok[src[i]]) f->d[src[i]] = 0;
  for (;;) {
    int32_t u = -1, x, y, dx, dy;
    for (i = 0; i < W->n; i++)
      if (!done[i] && f->d[i] < HUGE_VAL && (u < 0 || f->d[i] < f->d[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    x = u % W->w;
    y = u / W->w;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        int32_t vx = x + dx, vy = y + dy, v = vy * W->w + vx;
        int kind, priced;
        double c = 0, nd;
        if (!cell_in(W, vx, vy) || !(kind = step_kind(W, x, y, vx, vy)) || !ok[v]) continue;
        /* the side positions are (vx, y) and (x, vy) either way */
        if (!rule_allows(W, kind, ok[y * W->w + vx], ok[vy * W->w + x])) continue;
        priced = reverse ? enter_cost(W, q, kind, x, y, &c) : enter_cost(W, q, kind, vx, vy, &c);
        if (!priced) {
          f->bad = 1;
          continue;
        }
        nd = f->d[u] + c;
        if (nd == HUGE_VAL) {
          f->bad = 1;
          continue;
        }
        if (nd < f->d[v]) f->d[v] = nd;
      }
  }
}

/* The cost of graph edge e under q (cost callback from the world's table);
** 1 allowed, 0 forbidden, -1 bad. */
ORACLE
static int graph_edge_cost(const world *W, const astar_query *q, int32_t e, double *c) {
  int32_t to = W->eto[e], t = W->etag[e];
  double v = W->ecost[e];
  if (!W->enabled[to] || (q->forbid && q->forbid[to] != 0) || tag_forbids(q, t)) return 0;
  if (q->tag_factor && t > 0 && t < q->tag_count) v *= q->tag_factor[t];
  if (!isfinite(v)) return -1;
  if (q->penalty) {
    v += q->penalty[to] * q->penalty_scale;
    if (!(v >= 0) || !isfinite(v)) return -1;
  }
  if (q->cost_fn) {
    double o = W->cb.c[(uint32_t)e % 256];
    if (o >= 0) v = o;
    if (v == ASTAR_FORBID) return 0;
    if (!(v >= 0) || !isfinite(v)) return -1;
  }
  *c = v;
  return 1;
}

ORACLE
static void graph_oracle(const world *W, const astar_query *q, int32_t src, field *f) {
  unsigned char done[MAXN];
  int32_t i, e;
  f->bad = 0;
  memset(done, 0, sizeof done);
  for (i = 0; i < W->n; i++) f->d[i] = HUGE_VAL;
  if (W->enabled[src] && !(q->forbid && q->forbid[src] != 0)) f->d[src] = 0;
  for (;;) {
    int32_t u = -1;
    for (i = 0; i < W->n; i++)
      if (!done[i] && f->d[i] < HUGE_VAL && (u < 0 || f->d[i] < f->d[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    for (e = 0; e < W->ne; e++) {
      double c = 0, nd;
      int rc;
      if (W->efrom[e] != u) continue;
      rc = graph_edge_cost(W, q, e, &c);
      if (rc < 0) f->bad = 1;
      if (rc <= 0) continue;
      nd = f->d[u] + c;
      if (nd == HUGE_VAL) {
        f->bad = 1;
        continue;
      }
      if (nd < f->d[W->eto[e]]) f->d[W->eto[e]] = nd;
    }
  }
}

/* ---- what begin must refuse ---------------------------------------------- */

/* Jump point search's refusal, from astar.h's rules: square grids under
** rule never or no_corner_cutting, no cell costs, no tag factor other than
** 1 on a grid with tags, no penalty, forbid or cost callback, weight 1,
** one-cell units. */
ORACLE
static int jps_refused(const world *W, const astar_query *q) {
  int32_t t;
  if (W->shape != W_SQUARE) return 1;
  if (W->rule == ASTAR_DIAG_ONE_OBSTACLE || W->rule == ASTAR_DIAG_ALWAYS) return 1;
  if (q->size > 1 && W->rule != ASTAR_DIAG_NO_CORNER_CUTTING) return 1;
  if (W->cost_layer || q->penalty || q->forbid || q->cost_fn || q->weight != 1.0) return 1;
  if (q->tag_factor && W->tag_layer)
    for (t = 1; t < q->tag_count; t++)
      if (q->tag_factor[t] != 1.0) return 1;
  return 0;
}

/* The precomputed mode's refusal, from astar.h's rules: what JPS refuses,
** then a grid that is not no_corner_cutting, a unit, no table. */
ORACLE
static int plus_refused(const world *W, const astar_query *q) {
  return jps_refused(W, q) || W->rule != ASTAR_DIAG_NO_CORNER_CUTTING || q->size > 1 ||
         !W->jumps;
}

/* Whether built-in heuristic h applies to the world's topology (astar.h:
** "hex" to hex grids only; manhattan, octile, chebyshev not to them). */
ORACLE
static int takes_heuristic(const world *W, int h) {
  if (h == ASTAR_H_HEX) return W->shape == W_HEX;
  if (h == ASTAR_H_MANHATTAN || h == ASTAR_H_OCTILE || h == ASTAR_H_CHEBYSHEV)
    return W->shape != W_HEX;
  return 1;
}

/* Whether astar_search_begin must refuse q (EINVAL), by astar.h. */
ORACLE
static int query_invalid(const world *W, const astar_query *q) {
  int32_t t;
  if (q->start < 0 || q->start >= W->n || q->goal < 0 || q->goal >= W->n) return 1;
  if (q->heuristic < ASTAR_H_DEFAULT || q->heuristic > ASTAR_H_CALLBACK) return 1;
  if (q->heuristic >= 0 && q->heuristic < ASTAR_H_CALLBACK && !takes_heuristic(W, q->heuristic))
    return 1;
  if (q->heuristic == ASTAR_H_CALLBACK && !q->heuristic_fn) return 1;
  if (!(q->weight >= 0) || !isfinite(q->weight)) return 1;
  if (q->stop < ASTAR_STOP_EXPAND || q->stop > ASTAR_STOP_OPTIMAL) return 1;
  if (q->tie_break != ASTAR_TIE_HIGH_G && q->tie_break != ASTAR_TIE_FIFO) return 1;
  if (q->tag_factor) {
    if (q->tag_count < 0) return 1;
    for (t = 1; t < q->tag_count; t++)
      if (!(q->tag_factor[t] >= 0) ||
          (!isfinite(q->tag_factor[t]) && q->tag_factor[t] != ASTAR_FORBID))
        return 1;
  }
  if (!isfinite(q->penalty_scale) || isnan(q->max_cost) || q->max_cost < 0) return 1;
  if (q->algorithm < ASTAR_ALGO_AUTO || q->algorithm > ASTAR_ALGO_JPS_PLUS) return 1;
  if (q->size < 1 || q->size > ASTAR_MAX_UNIT) return 1;
  if (q->size > 1 && W->shape == W_GRAPH) return 1;
  if (q->algorithm == ASTAR_ALGO_JPS_PLUS) return plus_refused(W, q);
  return q->algorithm == ASTAR_ALGO_JPS && jps_refused(W, q);
}

/* ---- paths --------------------------------------------------------------- */

/* A found path to `to` on a grid: every cell holds q's unit, every step is
** one the rule allows (and astar_grid_step_fault says so), its link names
** it, and the step costs recomputed here sum exactly to the path's cost. */
static double check_cell_path(world *W, const astar_query *q, astar_search *s, int32_t to) {
  int32_t nodes[MAXN + 1], links[MAXN + 1], len = astar_search_path_length(s, to), i, cell = 0;
  double cost = -1, sum = 0;
  CHECK(len >= 1 && len <= W->n);
  CHECK(astar_search_path(s, to, nodes, links, &cost) == len);
  CHECK(nodes[0] == q->start && nodes[len - 1] == to);
  CHECK(astar_grid_step_fault(W->gr, q, -1, nodes[0], &cell) == ASTAR_STEP_OK && cell == -1);
  CHECK(fits(W, q, nodes[0] % W->w, nodes[0] / W->w));
  for (i = 1; i < len; i++) {
    int32_t x0 = nodes[i - 1] % W->w, y0 = nodes[i - 1] / W->w;
    int32_t x1 = nodes[i] % W->w, y1 = nodes[i] / W->w;
    double c = 0;
    CHECK(may_step(W, q, x0, y0, x1, y1));
    CHECK(dir_is(W, links[i - 1], x0, y0, x1, y1));
    CHECK(astar_grid_step_fault(W->gr, q, nodes[i - 1], nodes[i], &cell) == ASTAR_STEP_OK);
    CHECK(enter_cost(W, q, step_kind(W, x0, y0, x1, y1), x1, y1, &c));
    sum += c;
  }
  CHECK(sum == cost);
  return cost;
}

/* Independent check of a graph path; returns its cost. */
static double check_graph_path(const astar_graph *g, const astar_query *q,
                               cbctx *cb, astar_search *s) {
  int32_t len = astar_search_path_length(s, q->goal), i, nodes[512], edges[512];
  double cost = -1, sum = 0;
  CHECK(len >= 1 && len <= astar_graph_node_count(g));
  CHECK(astar_search_path(s, q->goal, nodes, edges, &cost) == len);
  CHECK(nodes[0] == q->start && nodes[len - 1] == q->goal);
  for (i = 0; i < len; i++) {
    CHECK(astar_graph_enabled(g, nodes[i]) == 1);
    CHECK(!q->forbid || q->forbid[nodes[i]] == 0);
  }
  for (i = 0; i + 1 < len; i++) {
    int32_t from, to, tag;
    double c;
    CHECK(astar_graph_edge(g, edges[i], &from, &to, &c, &tag) == ASTAR_OK);
    CHECK(from == nodes[i] && to == nodes[i + 1]);
    if (q->tag_factor && tag > 0 && tag < q->tag_count) {
      CHECK(q->tag_factor[tag] != ASTAR_FORBID);
      c *= q->tag_factor[tag];
    }
    if (q->penalty) c += q->penalty[nodes[i + 1]] * q->penalty_scale;
    if (q->cost_fn) {
      double v = cb->c[(uint32_t)edges[i] % 256];
      if (v >= 0) c = v;
      CHECK(c != ASTAR_FORBID);
    }
    sum += c;
  }
  CHECK(sum == cost || (isnan(sum) && isnan(cost)));
  return cost;
}

/* ---- segments (square grids) --------------------------------------------- */

/* The rate of the unit at (x, y) along a segment (astar.h, "Segments"): the
** cell's cost x tag factor + penalty x scale; for a unit of size k > 1 the
** k x k block, impassable outside the grid, else decided by its first cell
** (row by row) that is impassable or bad, else the largest rate.  los: line
** of sight, where only blocked cells count.  0 passable (*r), 1
** impassable, -1 bad (*r). */
ORACLE
static int one_rate(const world *W, const astar_query *q, int32_t x, int32_t y, int los,
                    double *r) {
  int32_t id = y * W->w + x, t = W->tag[id];
  double c = W->cost[id];
  if (W->blk[id]) return 1;
  if (los) {
    *r = 1;
    return 0;
  }
  if (q) {
    if ((q->forbid && q->forbid[id] != 0) || tag_forbids(q, t)) return 1;
    if (q->tag_factor && t > 0 && t < q->tag_count) c *= q->tag_factor[t];
    if (q->penalty) c += q->penalty[id] * q->penalty_scale;
  }
  *r = c;
  return c >= 0 && isfinite(c) ? 0 : -1;
}

ORACLE
static int unit_rate(const world *W, const astar_query *q, int32_t x, int32_t y, int los,
                     double *r) {
  int32_t k = los ? 1 : unit_k(q), a, e;
  double most = 0;
  if (k <= 1) return one_rate(W, q, x, y, los, r);
  if (x + k > W->w || y + k > W->h) return 1;
  for (e = 0; e < k; e++)
    for (a = 0; a < k; a++) {
      double v = 0;
      int rc = one_rate(W, q, x + a, y + e, los, &v);
      if (rc != 0) {
        *r = v;
        return rc;
      }
      if (v > most) most = v;
    }
  *r = most;
  return 0;
}

/* One thing a segment meets, at t = tn / td of the way: a cell it crosses
** (its interior), with the length inside it, or a grid corner it passes
** exactly, with the two cells beside it. */
typedef struct seg_ev {
  int64_t tn, td;
  int corner;
  int32_t x, y, x2, y2;
  double len;
} seg_ev;

#define MAXEV 1024

/* t1 < t2, as fractions with positive denominators. */
ORACLE
static int frac_lt(int64_t n1, int64_t d1, int64_t n2, int64_t d2) { return n1 * d2 < n2 * d1; }

/* The interval of t (lo, hi) over which the segment from a to a + d (in
** doubled coordinates: centres odd) is strictly inside the slab [2c, 2c + 2]. */
ORACLE
static void slab(int64_t a, int64_t d, int32_t c, int64_t *ln, int64_t *ld, int64_t *hn,
                 int64_t *hd) {
  if (d == 0) { /* never leaves its own column (row): inside when it is c */
    int in = a > 2 * c && a < 2 * c + 2;
    *ln = in ? 0 : 1;
    *ld = 1;
    *hn = in ? 1 : 0;
    *hd = 1;
    return;
  }
  if (d > 0) {
    *ln = 2 * c - a;
    *hn = 2 * c + 2 - a;
    *ld = *hd = d;
  } else {
    *ln = a - (2 * c + 2);
    *hn = a - 2 * c;
    *ld = *hd = -d;
  }
}

/* Everything the segment from the centre of (x0, y0) to that of (x1, y1)
** meets, in order along it (at a corner: the corner before the cell after
** it).  Brute force: every cell of the bounding box clipped against it,
** every lattice point tested.  Returns the count. */
ORACLE
static int seg_events(int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                      seg_ev *ev) {
  int64_t ax = 2 * (int64_t)x0 + 1, ay = 2 * (int64_t)y0 + 1;
  int64_t dx = 2 * ((int64_t)x1 - x0), dy = 2 * ((int64_t)y1 - y0);
  int32_t lx = x0 < x1 ? x0 : x1, hx = x0 < x1 ? x1 : x0, ly = y0 < y1 ? y0 : y1,
          hy = y0 < y1 ? y1 : y0, cx, cy;
  double len = sqrt((double)(x1 - x0) * (x1 - x0) + (double)(y1 - y0) * (y1 - y0));
  int n = 0, i, j;
  for (cy = ly; cy <= hy; cy++)
    for (cx = lx; cx <= hx; cx++) {
      int64_t xln, xld, xhn, xhd, yln, yld, yhn, yhd, ln = 0, ld = 1, hn = 1, hd = 1;
      slab(ax, dx, cx, &xln, &xld, &xhn, &xhd);
      slab(ay, dy, cy, &yln, &yld, &yhn, &yhd);
      if (frac_lt(ln, ld, xln, xld)) ln = xln, ld = xld;
      if (frac_lt(ln, ld, yln, yld)) ln = yln, ld = yld;
      if (frac_lt(xhn, xhd, hn, hd)) hn = xhn, hd = xhd;
      if (frac_lt(yhn, yhd, hn, hd)) hn = yhn, hd = yhd;
      if (!frac_lt(ln, ld, hn, hd) && !(dx == 0 && dy == 0)) continue;
      CHECK(n < MAXEV);
      ev[n].tn = ln;
      ev[n].td = ld;
      ev[n].corner = 0;
      ev[n].x = cx;
      ev[n].y = cy;
      ev[n].len = ((double)hn / (double)hd - (double)ln / (double)ld) * len;
      n++;
    }
  for (cy = ly + 1; cy <= hy; cy++)
    for (cx = lx + 1; cx <= hx; cx++) {
      int sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
      int32_t bx = cx - (sx > 0), by = cy - (sy > 0), fx = cx - (sx < 0), fy = cy - (sy < 0);
      if ((2 * (int64_t)cx - ax) * dy != (2 * (int64_t)cy - ay) * dx) continue;
      CHECK(n < MAXEV);
      ev[n].tn = dx > 0 ? 2 * (int64_t)cx - ax : ax - 2 * (int64_t)cx;
      ev[n].td = dx > 0 ? dx : -dx;
      ev[n].corner = 1;
      /* beside the corner: the cell before it shifted along x, then y */
      ev[n].x = fx;
      ev[n].y = by;
      ev[n].x2 = bx;
      ev[n].y2 = fy;
      ev[n].len = 0;
      n++;
    }
  for (i = 1; i < n; i++) /* insertion sort by t, a corner before a cell */
    for (j = i; j > 0; j--) {
      seg_ev a = ev[j - 1], b = ev[j];
      int later = frac_lt(b.tn, b.td, a.tn, a.td) ||
                  (!frac_lt(a.tn, a.td, b.tn, b.td) && b.corner && !a.corner);
      if (!later) break;
      ev[j - 1] = b;
      ev[j] = a;
    }
  return n;
}

enum { SEG_PASS, SEG_SHUT, SEG_BAD };

/* The segment oracle: SEG_PASS and *cost, SEG_SHUT (no passage), or
** SEG_BAD (*bad: the unit position whose rate is bad, *cost that rate).
** strict: both cells beside a corner must be passable (rules never and
** no_corner_cutting), else one (none on "always" grids); los: line of
** sight (blocked cells only). */
ORACLE
static int seg_oracle(const world *W, const astar_query *q, int32_t x0, int32_t y0, int32_t x1,
                      int32_t y1, int strict, int los, double *cost, int32_t *bad) {
  seg_ev ev[MAXEV];
  int n = seg_events(x0, y0, x1, y1, ev), i;
  double sum = 0, r = 0;
  for (i = 0; i < n; i++) {
    int k;
    if (ev[i].corner) {
      double r2 = 0;
      int shut = (unit_rate(W, q, ev[i].x, ev[i].y, los, &r) != 0) +
                 (unit_rate(W, q, ev[i].x2, ev[i].y2, los, &r2) != 0);
      /* "always" grids squeeze between two diagonal walls, lines too */
      if ((shut == 2 && W->rule != ASTAR_DIAG_ALWAYS) || (strict && shut > 0)) return SEG_SHUT;
      continue;
    }
    k = unit_rate(W, q, ev[i].x, ev[i].y, los, &r);
    if (k == 1) return SEG_SHUT;
    if (k < 0) {
      *bad = ev[i].y * W->w + ev[i].x;
      *cost = r;
      return SEG_BAD;
    }
    sum += ev[i].len * r;
  }
  *cost = sum;
  return SEG_PASS;
}

/* Segments' corner rule: strict under rules never and no_corner_cutting. */
ORACLE
static int seg_strict(const world *W) { return W->rule <= ASTAR_DIAG_NO_CORNER_CUTTING; }

/* Line of sight between two cells, by the segment oracle. */
ORACLE
static int los_oracle(const world *W, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  double c;
  int32_t b;
  return seg_oracle(W, NULL, x0, y0, x1, y1, 0, 1, &c, &b) == SEG_PASS;
}

/* Floor of a / b for b > 0. */
ORACLE
static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/*
** Line of sight on a hex grid by astar.h's definition: for i = 1 .. n - 1
** (n the hex distance) the point i/n of the way between the centres, held
** by one cell or, on an edge, by the two beside it, found by distance to
** the centres (exactly: axial numerators over n, squared distances
** dq^2 + dq dr + dr^2); blocked where every cell holding it is blocked or
** outside the grid.  The ends must be open.  -1 when a point is a corner of
** three cells (the rule does not say).
*/
ORACLE
static int hex_los_oracle(const world *W, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t q0, r0, q1, r1, n = hexd(W, x0, y0, x1, y1), i;
  if (W->blk[y0 * W->w + x0] || W->blk[y1 * W->w + x1]) return 0;
  hex_axial(W->layout, x0, y0, &q0, &r0);
  hex_axial(W->layout, x1, y1, &q1, &r1);
  for (i = 1; i < n; i++) {
    int64_t Q = (int64_t)q0 * (n - i) + (int64_t)q1 * i;
    int64_t R = (int64_t)r0 * (n - i) + (int64_t)r1 * i;
    int64_t fa = floor_div(Q, n), fb = floor_div(R, n), best = -1, a, b;
    int held = 0, open = 0;
    for (a = fa - 1; a <= fa + 2; a++)
      for (b = fb - 1; b <= fb + 2; b++) {
        int64_t dq = Q - a * n, dr = R - b * n, d2 = dq * dq + dq * dr + dr * dr;
        if (best < 0 || d2 < best) best = d2;
      }
    for (a = fa - 1; a <= fa + 2; a++)
      for (b = fb - 1; b <= fb + 2; b++) {
        int64_t dq = Q - a * n, dr = R - b * n;
        int32_t x, y;
        if (dq * dq + dq * dr + dr * dr != best) continue;
        hex_offset(W->layout, (int32_t)a, (int32_t)b, &x, &y);
        if (cell_in(W, x, y) && !W->blk[y * W->w + x]) open++;
        held++;
      }
    if (held > 2) return -1;
    if (!open) return 0;
  }
  return 1;
}

/* Whether some unit position has a bad rate under q (then a segment may
** stop with ECOST). */
ORACLE
static int any_bad_rate(const world *W, const astar_query *q) {
  int32_t x, y;
  double r;
  for (y = 0; y < W->h; y++)
    for (x = 0; x < W->w; x++)
      if (unit_rate(W, q, x, y, 0, &r) < 0) return 1;
  return 0;
}

/* The smallest rate of a position where the unit passes (HUGE_VAL: none). */
ORACLE
static double min_rate(const world *W, const astar_query *q) {
  int32_t x, y;
  double r, m = HUGE_VAL;
  for (y = 0; y < W->h; y++)
    for (x = 0; x < W->w; x++)
      if (unit_rate(W, q, x, y, 0, &r) == 0 && r < m) m = r;
  return m;
}

/* ---- step faults --------------------------------------------------------- */

/* What astar_grid_step_fault must answer, by astar.h: the unit at `to`
** (blocked or outside first, then forbidden by the field, then by a tag),
** then the geometry, then the rule on the side positions.  *blame gets a
** test for the blamed cell: 0 none (-1), 1 a blocked cell of the unit or
** -1 outside, 2 a cell of the unit with a forbid value, 3 with a forbidding
** tag. */
ORACLE
static int fault_oracle(const world *W, const astar_query *q, int32_t from, int32_t to,
                        int *blame) {
  int32_t k = unit_k(q), lo = unit_lo(W, k), tx = to % W->w, ty = to / W->w, fx, fy, cx, cy;
  int pass, a, b;
  *blame = 0;
  for (pass = 1; pass <= 3; pass++)
    for (cy = ty + lo; cy < ty + k; cy++)
      for (cx = tx + lo; cx < tx + k; cx++) {
        int32_t id = cy * W->w + cx;
        if (!in_unit(W, k, tx, ty, cx, cy)) continue;
        if (pass == 1 && (!cell_in(W, cx, cy) || W->blk[id])) {
          *blame = 1;
          return ASTAR_STEP_BLOCKED;
        }
        if (pass == 2 && q && q->forbid && q->forbid[id] != 0) {
          *blame = 2;
          return ASTAR_STEP_FORBIDDEN;
        }
        if (pass == 3 && tag_forbids(q, W->tag[id])) {
          *blame = 3;
          return ASTAR_STEP_TAG;
        }
      }
  if (from < 0) return ASTAR_STEP_OK;
  if (from == to) return ASTAR_STEP_SAME;
  fx = from % W->w;
  fy = from / W->w;
  if (abs(tx - fx) > 1 || abs(ty - fy) > 1 || (W->shape == W_HEX && hexd(W, fx, fy, tx, ty) != 1))
    return ASTAR_STEP_FAR;
  if (W->shape == W_HEX || tx == fx || ty == fy) return ASTAR_STEP_OK;
  if (W->rule == ASTAR_DIAG_NEVER) return ASTAR_STEP_DIAGONAL;
  if (W->rule == ASTAR_DIAG_ALWAYS) return ASTAR_STEP_OK;
  a = fits(W, q, tx, fy);
  b = fits(W, q, fx, ty);
  if (W->rule == ASTAR_DIAG_NO_CORNER_CUTTING ? a && b : a || b) return ASTAR_STEP_OK;
  return ASTAR_STEP_CORNER;
}

/* Whether some cell of the unit of size k at (x, y) lies outside the grid. */
ORACLE
static int unit_outside(const world *W, int32_t k, int32_t x, int32_t y) {
  int32_t lo = unit_lo(W, k), cx, cy;
  for (cy = y + lo; cy < y + k; cy++)
    for (cx = x + lo; cx < x + k; cx++)
      if (in_unit(W, k, x, y, cx, cy) && !cell_in(W, cx, cy)) return 1;
  return 0;
}

/* The blamed cell fits the fault_oracle's description. */
static void check_blame(const world *W, const astar_query *q, int32_t to, int blame,
                        int32_t cell) {
  int32_t k = unit_k(q), tx = to % W->w, ty = to / W->w;
  if (blame == 0) {
    CHECK(cell == -1);
    return;
  }
  if (cell == -1) { /* the unit leaves the grid */
    CHECK(blame == 1 && unit_outside(W, k, tx, ty));
    return;
  }
  CHECK(cell >= 0 && cell < W->n && in_unit(W, k, tx, ty, cell % W->w, cell / W->w));
  if (blame == 1) CHECK(W->blk[cell]);
  if (blame == 2) CHECK(q->forbid[cell] != 0);
  if (blame == 3) CHECK(tag_forbids(q, W->tag[cell]));
}
/* ---- precomputed tables -------------------------------------------------- */

/* Builds a landmark or cluster table on t from the input and checks it
** against Dijkstra (reverse distances to a few goals): no overestimate, and
** A* guided by it (stop = expand, with reopening) finds the optimal cost.
** Then the audit, with the table and with the fuzzed callback heuristic. */
static void fuzz_tables(astar_topology *t, input *in, astar_search *s,
                        astar_search *s2, cbctx *cb) {
  int32_t n = astar_topology_node_count(t), labels[256], k, v, gi;
  astar_table *h = NULL;
  astar_audit a;
  astar_query q;
  int rc, kind = u8(in) % 3;
  if (kind == 0) {
    k = (int32_t)(u8(in) % 6);            /* 0 is refused */
    rc = astar_landmarks_build(t, k, NULL, NULL, &h);
  } else {
    k = (int32_t)(u8(in) % 6);
    if (kind == 2 && n <= 256) {
      for (v = 0; v < n; v++) labels[v] = (int32_t)(u8(in) % 8) - 1; /* -1..6 */
      rc = astar_clusters_build(t, labels, k, NULL, NULL, &h);
    } else {
      rc = astar_clusters_build(t, NULL, k, NULL, NULL, &h);
    }
  }
  if (rc != ASTAR_OK) { /* no passable node, a bad k or label, or costs
                         ** whose sums overflow */
    CHECK(h == NULL);
    if (rc != ASTAR_EINVAL) data_error(rc);
    return;
  }
  CHECK(astar_table_serves(h, t) && astar_table_size(h) >= 1 && astar_table_bytes(h) > 0);
  CHECK(astar_table_kind(h) == (kind == 0 ? ASTAR_TABLE_LANDMARKS : ASTAR_TABLE_CLUSTERS));
  for (gi = 0; gi < 3 && in->n > 0; gi++) {
    int32_t goal = (int32_t)(u8(in) % (uint32_t)n), start = (int32_t)(u8(in) % (uint32_t)n);
    int st;
    astar_query_init(&q, 0, 0);
    CHECK(astar_search_begin_distances(s2, t, &goal, 1, 1, &q) == ASTAR_OK);
    st = run(s2, in);
    if (data_error(st)) continue;         /* a sum overflowed */
    CHECK(st == ASTAR_FOUND);
    for (v = 0; v < n; v++) {
      double hv, d = astar_search_g(s2, v);
      CHECK(astar_table_heuristic(h, v, goal, &hv) == 0 && hv >= 0 && isfinite(hv));
      if (d >= 0) CHECK(hv <= d + 1e-9 * (1 + d));
    }
    astar_query_init(&q, start, goal);
    q.heuristic = ASTAR_H_CALLBACK;
    q.heuristic_fn = astar_table_heuristic;
    q.heuristic_ctx = h;
    CHECK(astar_search_begin(s, t, &q) == ASTAR_OK);
    st = run(s, in);
    if (data_error(st)) continue;
    if (astar_search_g(s2, start) < 0) {
      CHECK(st == ASTAR_UNREACHABLE);
    } else {
      double d = astar_search_g(s2, start), c;
      int32_t nodes[1024];
      CHECK(st == ASTAR_FOUND);
      if (astar_search_path_length(s, goal) <= 1024) {
        astar_search_path(s, goal, nodes, NULL, &c);
        CHECK(fabs(c - d) <= 1e-9 * (1 + d) || !isfinite(d));
      }
    }
  }
  astar_query_init(&q, 0, 0);
  q.heuristic = ASTAR_H_CALLBACK;
  q.heuristic_fn = astar_table_heuristic;
  q.heuristic_ctx = h;
  rc = astar_audit_heuristic(t, &q, 1 + u8(in) % 4, s, s2, &a);
  if (rc == ASTAR_EINVAL) { /* only when no node is passable (labels may
                            ** name blocked cells only) */
    for (v = 0; v < n; v++) CHECK(astar_topology_passable(t, v) == 0);
  } else if (!data_error(rc)) {
    CHECK(rc == ASTAR_OK && a.overestimates == 0 && a.samples >= 1);
  }
  astar_table_free(h);
  /* the fuzzed heuristic: any answer, but a clean one */
  q.heuristic_fn = fuzz_h;
  q.heuristic_ctx = cb;
  cb->calls = 0;
  cb->abort_at = (u8(in) % 4 == 0) ? u8(in) : -1;
  rc = astar_audit_heuristic(t, &q, (int32_t)(u8(in) % 4), s, s2, &a); /* 0: refused */
  if (rc != ASTAR_EINVAL && !data_error(rc)) CHECK(rc == ASTAR_OK && a.samples >= 1);
}

/* ---- searches against the oracles ---------------------------------------- */

/* A finished path search s of q on a grid (status st, no data error)
** against the oracle: a found path is checked and costs no less than the
** optimum (stop = optimal: exactly it); otherwise the status is what
** reachability, max_cost and the budget allow. */
static void oracle_path(world *W, const astar_query *q, astar_search *s, int st) {
  field f;
  double d;
  int reach;
  cell_oracle(W, q, &q->start, 1, 0, &f);
  d = f.d[q->goal];
  reach = d < HUGE_VAL;
  if (st == ASTAR_FOUND) {
    double c = check_cell_path(W, q, s, q->goal);
    CHECK(reach && c <= q->max_cost);
    if (!f.bad) {
      CHECK(c >= d - tol(d));
      if (q->stop == ASTAR_STOP_OPTIMAL) CHECK(fabs(c - d) <= tol(d));
    }
    return;
  }
  if (q->track_best && astar_search_best(s) >= 0) check_cell_path(W, q, s, astar_search_best(s));
  if (f.bad) return; /* a step the oracle skipped may have been taken */
  if (st == ASTAR_MAX_EXPANSIONS) CHECK(q->max_expansions > 0);
  else if (st == ASTAR_MAX_COST)
    CHECK(q->max_cost < HUGE_VAL && (!reach || d > q->max_cost - tol(d)));
  else CHECK(st == ASTAR_UNREACHABLE && !reach);
}

/* A finished distance search s (sources src, reverse or not, query q)
** against the oracle: every cell's cost exactly, unreached beyond max_cost;
** every link an allowed step whose cost plus the next cell's is exactly
** the cell's own; sources at 0 with no link. */
static void oracle_field(world *W, const astar_query *q, const int32_t *src, int ns,
                         int reverse, astar_search *s) {
  field f;
  int32_t v, i;
  cell_oracle(W, q, src, ns, reverse, &f);
  if (f.bad) return;
  for (v = 0; v < W->n; v++) {
    double g = astar_search_g(s, v), c = 0;
    int32_t p = astar_search_parent(s, v), l = astar_search_link(s, v), vx = v % W->w,
            vy = v / W->w, px, py;
    int is_src = 0;
    if (f.d[v] == HUGE_VAL || f.d[v] > q->max_cost) {
      CHECK(g < 0 && p == -1 && l == -1);
      continue;
    }
    CHECK(g == f.d[v]);
    for (i = 0; i < ns; i++) is_src |= src[i] == v;
    if (l < 0) {
      CHECK(p == -1 && g == 0 && is_src);
      continue;
    }
    CHECK(p >= 0 && p < W->n);
    px = p % W->w;
    py = p / W->w;
    if (reverse) {
      CHECK(may_step(W, q, vx, vy, px, py) && dir_is(W, l, vx, vy, px, py));
      CHECK(enter_cost(W, q, step_kind(W, vx, vy, px, py), px, py, &c));
    } else {
      CHECK(may_step(W, q, px, py, vx, vy) && dir_is(W, l, px, py, vx, vy));
      CHECK(enter_cost(W, q, step_kind(W, px, py, vx, vy), vx, vy, &c));
    }
    CHECK(g == astar_search_g(s, p) + c);
  }
}

/* A graph path search s of q (status st, no data error) against the
** graph oracle, as oracle_path (the cost callback's table included; the
** callback must not abort). */
static void oracle_graph(world *W, const astar_query *q, astar_search *s, int st) {
  field f;
  double d;
  graph_oracle(W, q, q->start, &f);
  d = f.d[q->goal];
  if (st == ASTAR_FOUND) {
    double c = check_graph_path(W->g, q, &W->cb, s);
    CHECK(d < HUGE_VAL);
    if (!f.bad && q->stop == ASTAR_STOP_OPTIMAL) CHECK(fabs(c - d) <= tol(d));
    if (!f.bad) CHECK(c >= d - tol(d));
    return;
  }
  if (f.bad || st == ASTAR_MAX_EXPANSIONS || st == ASTAR_MAX_COST) return;
  CHECK(st == ASTAR_UNREACHABLE && d == HUGE_VAL);
}

/* ---- graphs -------------------------------------------------------------- */

/* A graph from the input: up to 40 nodes at fuzzed positions, up to 160
** edges (some refused), some nodes disabled, the modifiers and the
** callbacks' tables.  Every add is checked against astar.h's rules. */
static void graph_build(world *W, input *in) {
  int32_t nn, ne, i, id;
  world_init(W, W_GRAPH);
  W->g = astar_graph_new(NULL, NULL);
  CHECK(W->g != NULL);
  W->t = astar_graph_topology(W->g);
  W->abil = astar_topology_abilities(W->t);
  CHECK(W->abil == 0 && astar_topology_grid(W->t) == NULL && astar_topology_max_size(W->t) == 1);
  CHECK(astar_topology_default_heuristic(W->t) == ASTAR_H_EUCLIDEAN);
  CHECK(strcmp(astar_topology_kind(W->t), "graph") == 0);
  nn = 1 + u8(in) % 40;
  ne = u8(in) % 160;
  W->n = nn;
  for (i = 0; i < nn; i++) {
    double x = dbl(in), y = dbl(in), z = (u8(in) & 1) ? dbl(in) : 0;
    if (astar_graph_add_node(W->g, x, y, z, &id) != ASTAR_OK)
      CHECK(astar_graph_add_node(W->g, 0, 0, 0, &id) == ASTAR_OK); /* refused: keep count */
    W->enabled[i] = 1;
  }
  CHECK(astar_graph_node_count(W->g) == nn);
  for (i = 0; i < ne; i++) {
    int32_t a = (int32_t)u32(in) % (nn + 2) - 1, b = u8(in) % nn,
            before = astar_graph_edge_count(W->g), tag;
    double c = dbl(in);
    int rc;
    tag = u8(in) % 4;
    rc = astar_graph_add_edge(W->g, a, b, c, tag, &id);
    if (rc != ASTAR_OK) {
      CHECK(astar_graph_edge_count(W->g) == before);
      CHECK(!(c >= 0 && isfinite(c) && a >= 0 && a < nn));
      continue;
    }
    CHECK(c >= 0 && isfinite(c) && a >= 0 && a < nn && id == W->ne);
    W->efrom[W->ne] = a;
    W->eto[W->ne] = b;
    W->etag[W->ne] = tag;
    W->ecost[W->ne++] = c;
  }
  for (i = 0; i < nn; i++)
    if (u8(in) % 8 == 0) {
      CHECK(astar_graph_set_enabled(W->g, i, 0) == ASTAR_OK);
      W->enabled[i] = 0;
    }
  for (i = 0; i < 4; i++) W->factors[i] = (u8(in) % 4 == 0) ? ASTAR_FORBID : dbl(in);
  for (i = 0; i < nn; i++) {
    W->penalty[i] = (u8(in) % 4) ? 0 : (double)(u8(in) % 8);
    W->forbid[i] = (u8(in) % 9) ? 0 : 1;
  }
  for (i = 0; i < 64; i++) W->cb.h[i] = (u8(in) % 3) ? (double)(u8(in) % 32) : dbl(in);
  for (i = 0; i < 256; i++) W->cb.c[i] = (u8(in) % 2) ? -1 : dbl(in);
}

/* One graph query, every field fuzzed (some out of range): refused, or run
** and checked against Dijkstra (a second search), stop = optimal, and the
** oracle. */
static void graph_query(world *W, input *in) {
  astar_search *s = W->s, *s2 = W->s2;
  astar_topology *t = W->t;
  cbctx *cb = &W->cb;
  astar_query q, ref;
  int32_t nn = W->n, start, goal;
  int st, st_opt, st_ref;
  start = (int32_t)(u32(in) % (uint32_t)(nn + 1));
  goal = (int32_t)(u8(in) % (nn + 1));
  astar_query_init(&q, start, goal);
  q.heuristic = u8(in) % 9;                 /* 8 is the callback */
  q.weight = (u8(in) % 4) ? (double)(u8(in) % 4) : dbl(in);
  q.stop = u8(in) % 4;                      /* 3 is out of range */
  q.tie_break = u8(in) % 3;
  if (u8(in) & 1) {
    q.tag_factor = W->factors;
    q.tag_count = u8(in) % 5;
  }
  if (u8(in) % 4 == 0) {
    q.penalty = W->penalty;
    q.penalty_scale = (double)(u8(in) % 3);
  }
  if (u8(in) % 5 == 0) q.forbid = W->forbid;
  if (q.heuristic == ASTAR_H_CALLBACK || (u8(in) & 1)) {
    q.heuristic_fn = fuzz_h;
    q.heuristic_ctx = cb;
  }
  if (u8(in) % 3 == 0) {
    q.cost_fn = fuzz_cost;
    q.cost_ctx = cb;
  }
  q.record_trace = u8(in) & 1;
  q.record_visited = u8(in) & 1;
  q.track_best = u8(in) & 1;
  cb->calls = 0;
  cb->abort_at = (u8(in) % 16 == 0) ? u8(in) : -1;
  st = astar_search_begin(s, t, &q);
  if (st != ASTAR_OK) { /* invalid, or the start's heuristic was bad */
    if (st == ASTAR_EINVAL) CHECK(query_invalid(W, &q));
    else CHECK(data_error(st) && !query_invalid(W, &q));
    CHECK(astar_search_step(s, 1) < 0); /* nothing to step */
    return;
  }
  CHECK(!query_invalid(W, &q));
  st = run(s, in);
  if (data_error(st)) return;
  oracle_graph(W, &q, s, st);
  /* the reference: Dijkstra with the same modifiers, in a second search */
  ref = q;
  ref.heuristic = ASTAR_H_ZERO;
  ref.stop = ASTAR_STOP_EXPAND;
  ref.weight = 1;
  ref.record_trace = ref.record_visited = 0;
  cb->abort_at = -1;
  CHECK(astar_search_begin(s2, t, &ref) == ASTAR_OK);
  st_ref = run(s2, in);
  if (data_error(st_ref)) return;
  oracle_graph(W, &ref, s2, st_ref);
  if (st_ref != ASTAR_FOUND) {
    CHECK(st_ref == ASTAR_UNREACHABLE && st == ASTAR_UNREACHABLE);
    return;
  }
  CHECK(st == ASTAR_FOUND);
  {
    double c = check_graph_path(W->g, &q, cb, s);
    double d = check_graph_path(W->g, &ref, cb, s2);
    astar_query o = q;
    o.stop = ASTAR_STOP_OPTIMAL;
    cb->abort_at = -1;
    CHECK(astar_search_begin(s, t, &o) == ASTAR_OK);
    st_opt = run(s, in);
    /* optimal relaxes more steps than expand: it may meet a bad value */
    if (data_error(st_opt)) return;
    CHECK(st_opt == ASTAR_FOUND);
    oracle_graph(W, &o, s, st_opt);
    {
      double co = check_graph_path(W->g, &o, cb, s);
      double tl = 1e-9 * (fabs(d) + 1);
      if (isfinite(d) && isfinite(co)) {
        CHECK(co <= c + tl || !isfinite(c));
        CHECK(fabs(co - d) <= tl);
        CHECK(c >= d - tl);
      }
    }
  }
}

/* Distances to up to three sources, checked on a sample of nodes against
** path searches (and their links as real steps).  0 when the fuzzed factors
** made begin refuse or the search met a bad value (the old format then
** stops). */
static int graph_distances(world *W, input *in) {
  astar_search *s = W->s, *s2 = W->s2;
  int32_t src[3], ns = 1 + u8(in) % 3, v, k, nn = W->n;
  astar_query dq;
  int st;
  for (k = 0; k < ns; k++) src[k] = u8(in) % nn;
  astar_query_init(&dq, 0, 0);
  if (u8(in) & 1) {
    dq.tag_factor = W->factors;
    dq.tag_count = 4;
  }
  if (u8(in) % 4 == 0) dq.max_cost = (double)(u8(in) % 16);
  /* the fuzzed factors may be invalid: then begin refuses, as it should */
  if (astar_search_begin_distances(s, W->t, src, (size_t)ns, 1, &dq) != ASTAR_OK) {
    CHECK(query_invalid(W, &dq));
    return 0;
  }
  st = run(s, in);
  if (data_error(st)) return 0;
  CHECK(st == ASTAR_FOUND);
  for (v = 0; v < nn && v < 10; v++) {
    double d = astar_search_g(s, v), best = -1;
    int32_t link = astar_search_link(s, v);
    int unknown = 0;
    for (k = 0; k < ns; k++) {
      astar_query rq;
      int32_t nodes[512];
      double c;
      int rst;
      astar_query_init(&rq, v, src[k]);
      rq.heuristic = ASTAR_H_ZERO;
      rq.tag_factor = dq.tag_factor;
      rq.tag_count = dq.tag_count;
      CHECK(astar_search_begin(s2, W->t, &rq) == ASTAR_OK);
      rst = run(s2, in);
      /* a forward search explores other edges than the reverse one: it
      ** may meet an edge whose cost overflows that the distance search
      ** never touched; then this node's answer is unknown */
      if (data_error(rst)) unknown = 1;
      if (rst != ASTAR_FOUND) continue;
      astar_search_path(s2, src[k], nodes, NULL, &c);
      if (best < 0 || c < best) best = c;
    }
    if (unknown) continue;
    if (best < 0 || best > dq.max_cost) {
      CHECK(d < 0);
      continue;
    }
    CHECK(d >= 0 && fabs(d - best) <= 1e-9 * (1 + best));
    if (link >= 0) { /* a real step, and the costs add up exactly */
      int32_t from, to, tag;
      double c;
      CHECK(astar_graph_edge(W->g, link, &from, &to, &c, &tag) == ASTAR_OK && from == v);
      if (dq.tag_factor && tag > 0 && tag < dq.tag_count) c *= dq.tag_factor[tag];
      CHECK(d == c + astar_search_g(s, to));
    } else {
      int is_src = 0;
      for (k = 0; k < ns; k++) is_src |= src[k] == v;
      CHECK(is_src && d == 0);
    }
  }
  return 1;
}

/* Graph edits: nodes enabled and disabled, edge costs set, ids and costs
** out of range refused; a search begun before a change refuses to step; a
** locked graph refuses edits. */
static void graph_edit(world *W, input *in) {
  int count = 1 + u8(in) % 8, i;
  astar_query q;
  uint32_t v0 = astar_topology_version(W->t);
  int searching;
  astar_query_init(&q, 0, 0);
  CHECK(astar_search_begin(W->s, W->t, &q) == ASTAR_OK);
  searching = astar_search_status(W->s) == ASTAR_SEARCHING;
  for (i = 0; i < count; i++) {
    int32_t id = (int32_t)(u8(in) % (W->n + 2)) - 1;
    int rc, lock = u8(in) % 8 == 0;
    if (lock) astar_topology_lock(W->t, 1);
    if (u8(in) & 1) {
      int on = u8(in) & 1;
      rc = astar_graph_set_enabled(W->g, id, on);
      if (lock) CHECK(rc == ASTAR_EBUSY);
      else if (id < 0 || id >= W->n) CHECK(rc == ASTAR_EINVAL);
      else {
        CHECK(rc == ASTAR_OK);
        W->enabled[id] = (unsigned char)on;
      }
    } else {
      double c = dbl(in);
      id = (int32_t)(u8(in) % (W->ne + 2)) - 1;
      rc = astar_graph_set_cost(W->g, id, c);
      if (lock) CHECK(rc == ASTAR_EBUSY);
      else if (id < 0 || id >= W->ne || !(c >= 0) || !isfinite(c)) CHECK(rc == ASTAR_EINVAL);
      else {
        CHECK(rc == ASTAR_OK);
        W->ecost[id] = c;
      }
    }
    if (lock) astar_topology_lock(W->t, -1);
  }
  CHECK(astar_topology_locked(W->t) == 0);
  for (i = 0; i < W->n; i++) CHECK(astar_graph_enabled(W->g, i) == W->enabled[i]);
  for (i = 0; i < W->ne; i++) {
    double c;
    CHECK(astar_graph_edge(W->g, i, NULL, NULL, &c, NULL) == ASTAR_OK && c == W->ecost[i]);
  }
  if (searching && astar_topology_version(W->t) != v0)
    CHECK(astar_search_step(W->s, 0) == ASTAR_ECHANGED);
}

/* ---- grids: building, clearance ------------------------------------------ */

/* Per cell a byte: a multiple of 5 blocks it, of 7 sets a fuzzed cost (may
** be refused), of 11 a tag 0..3. */
static void cells_decode(world *W, input *in) {
  int32_t x, y;
  for (y = 0; y < W->h; y++)
    for (x = 0; x < W->w; x++) {
      uint8_t b = u8(in);
      if (b % 5 == 0) w_block(W, x, y, 1);
      if (b % 7 == 0) w_cost(W, x, y, dbl(in));
      if (b % 11 == 0) w_tag(W, x, y, u8(in) % 4);
    }
}

static void factors_decode(world *W, input *in) {
  int i;
  for (i = 0; i < 4; i++) W->factors[i] = (u8(in) % 4 == 0) ? ASTAR_FORBID : (double)(u8(in) % 5);
}

/* The clearance of (x, y) by brute force: the unit grows while it fits. */
ORACLE
static int32_t brute_clearance(const world *W, int32_t x, int32_t y) {
  int32_t k = 0;
  while (k < ASTAR_MAX_UNIT && fits_k(W, NULL, k + 1, x, y)) k++;
  return k;
}

static void check_clearance(const world *W) {
  int32_t x, y;
  for (y = 0; y < W->h; y++)
    for (x = 0; x < W->w; x++)
      CHECK(astar_grid_clearance(W->gr, x, y) == brute_clearance(W, x, y));
  CHECK(astar_grid_clearance(W->gr, -1, 0) == ASTAR_EINVAL);
}

/* ---- the old format: grids and hex grids --------------------------------- */

static void legacy_cells_build(world *W, input *in, int shape) {
  int32_t side = shape == W_SQUARE ? 16 : 12, w, h, i;
  int mode;
  w = 1 + u8(in) % side;
  h = 1 + u8(in) % side;
  mode = u8(in) % 4;
  world_grid(W, shape, w, h, mode);
  CHECK(astar_grid_set_blocked(W->gr, w, 0, 1) == ASTAR_EINVAL);
  cells_decode(W, in);
  for (i = 0; i < W->n; i++) {
    W->penalty[i] = (u8(in) % 4) ? 0 : (double)(u8(in) % 8);
    W->forbid[i] = (u8(in) % 9) ? 0 : 1;
  }
  factors_decode(W, in);
}

/* A query with every heuristic and modifier (square grids: every
** algorithm): refused exactly when invalid, else against the oracle, an
** exhaustive reference search and stop = optimal. */
static void legacy_cell_query(world *W, input *in) {
  astar_search *s = W->s, *s2 = W->s2;
  astar_query q, ref, o;
  int32_t start, goal;
  int st, st_ref, rc;
  double c, d, co;
  start = (int32_t)(u32(in) % (uint32_t)(W->n + 1));
  goal = (int32_t)(u8(in) % W->n);
  astar_query_init(&q, start, goal);
  q.heuristic = u8(in) % (W->shape == W_SQUARE ? 7 : 9);
  q.weight = (double)(u8(in) % 3);
  q.stop = u8(in) % 3;
  q.tie_break = u8(in) % 2;
  if (u8(in) & 1) {
    q.tag_factor = W->factors;
    q.tag_count = 4;
  }
  if (u8(in) & 1) {
    q.penalty = W->penalty;
    q.penalty_scale = (double)(u8(in) % 3);
  }
  if (u8(in) % 3 == 0) q.forbid = W->forbid;
  if (W->shape == W_SQUARE) q.algorithm = u8(in) % 4; /* 3 is out of range */
  rc = astar_search_begin(s, W->t, &q);
  CHECK((rc == ASTAR_EINVAL) == query_invalid(W, &q));
  CHECK((astar_jps_refusal(W->t, &q) != NULL) == jps_refused(W, &q));
  if (rc != ASTAR_OK) return;
  st = run(s, in);
  if (data_error(st)) return;
  oracle_path(W, &q, s, st);
  ref = q;
  ref.heuristic = ASTAR_H_ZERO;
  ref.stop = ASTAR_STOP_EXPAND;
  ref.weight = 1;
  ref.algorithm = ASTAR_ALGO_ASTAR; /* the reference never jumps */
  CHECK(astar_search_begin(s2, W->t, &ref) == ASTAR_OK);
  st_ref = run(s2, in);
  /* the exhaustive reference may meet a step the query never touched whose
  ** penalty makes it negative (ECOST): then nothing is known */
  if (data_error(st_ref)) return;
  oracle_path(W, &ref, s2, st_ref);
  if (st_ref != ASTAR_FOUND) {
    CHECK(st == ASTAR_UNREACHABLE && st_ref == ASTAR_UNREACHABLE);
    return;
  }
  CHECK(st == ASTAR_FOUND);
  c = check_cell_path(W, &q, s, q.goal);
  d = check_cell_path(W, &ref, s2, ref.goal);
  o = q;
  o.stop = ASTAR_STOP_OPTIMAL;
  CHECK(astar_search_begin(s, W->t, &o) == ASTAR_OK);
  st = run(s, in);
  if (data_error(st)) return; /* it may meet such a step too */
  CHECK(st == ASTAR_FOUND);
  oracle_path(W, &o, s, st);
  co = check_cell_path(W, &o, s, o.goal);
  CHECK(co <= c + tol(c));
  CHECK(fabs(co - d) <= tol(d));
}

/* Square grids: reverse distances to one or two sources against path
** searches on a sample of cells, and every cell against the oracle. */
static void legacy_grid_distances(world *W, input *in) {
  astar_search *s = W->s, *s2 = W->s2;
  int32_t src[2], ns = 1 + u8(in) % 2, v, k;
  astar_query dq;
  int st;
  for (k = 0; k < ns; k++) src[k] = u8(in) % W->n;
  astar_query_init(&dq, 0, 0);
  if (u8(in) & 1) {
    dq.tag_factor = W->factors;
    dq.tag_count = 4;
  }
  if (u8(in) & 1) {
    dq.penalty = W->penalty;
    dq.penalty_scale = (double)(u8(in) % 3);
  }
  if (u8(in) % 3 == 0) dq.forbid = W->forbid;
  CHECK(astar_search_begin_distances(s, W->t, src, (size_t)ns, 1, &dq) == ASTAR_OK);
  st = run(s, in);
  if (!data_error(st)) CHECK(st == ASTAR_FOUND);
  for (v = 0; st == ASTAR_FOUND && v < W->n && v < 12; v++) {
    double d = astar_search_g(s, v), best = -1;
    int unknown = 0;
    for (k = 0; k < ns; k++) {
      astar_query rq = dq;
      int32_t nodes[1024];
      double c;
      int rst;
      rq.start = v;
      rq.goal = src[k];
      rq.heuristic = ASTAR_H_ZERO;
      CHECK(astar_search_begin(s2, W->t, &rq) == ASTAR_OK);
      rst = run(s2, in);
      if (data_error(rst)) unknown = 1; /* as for graphs above */
      if (rst != ASTAR_FOUND) continue;
      astar_search_path(s2, src[k], nodes, NULL, &c);
      if (best < 0 || c < best) best = c;
    }
    if (unknown) continue;
    if (best < 0) {
      CHECK(d < 0);
      continue;
    }
    CHECK(d >= 0 && fabs(d - best) <= 1e-9 * (1 + best));
  }
  if (st == ASTAR_FOUND) oracle_field(W, &dq, src, ns, 1, s);
}

/* Hex grids: distances from one source, either way, against path searches
** on a sample of cells, and every cell against the oracle. */
static void legacy_hex_distances(world *W, input *in) {
  astar_search *s = W->s, *s2 = W->s2;
  int32_t src = u8(in) % W->n, v;
  astar_query dq;
  int st, reverse = u8(in) & 1;
  astar_query_init(&dq, 0, 0);
  if (u8(in) & 1) {
    dq.tag_factor = W->factors;
    dq.tag_count = 4;
  }
  if (u8(in) % 3 == 0) dq.forbid = W->forbid;
  CHECK(astar_search_begin_distances(s, W->t, &src, 1, reverse, &dq) == ASTAR_OK);
  st = run(s, in);
  if (!data_error(st)) CHECK(st == ASTAR_FOUND);
  for (v = 0; st == ASTAR_FOUND && v < W->n && v < 12; v++) {
    double d = astar_search_g(s, v), c;
    astar_query rq = dq;
    int32_t nodes[1024];
    int rst;
    rq.start = reverse ? v : src;
    rq.goal = reverse ? src : v;
    rq.heuristic = ASTAR_H_ZERO;
    CHECK(astar_search_begin(s2, W->t, &rq) == ASTAR_OK);
    rst = run(s2, in);
    if (data_error(rst)) continue;
    if (rst != ASTAR_FOUND) {
      CHECK(d < 0);
      continue;
    }
    astar_search_path(s2, rq.goal, nodes, NULL, &c);
    CHECK(d >= 0 && fabs(d - c) <= 1e-9 * (1 + c));
  }
  if (st == ASTAR_FOUND) oracle_field(W, &dq, &src, 1, reverse, s);
}

/*
** Square grids, sized units: the clearance layer against a brute-force
** scan after random edits (it is kept up incrementally once built), then
** sized queries: a size out of range is refused; a found path holds the
** unit at every cell; stop = optimal agrees with Dijkstra and the oracle.
*/
static void legacy_sizes(world *W, input *in) {
  astar_search *s = W->s, *s2 = W->s2;
  int32_t x, y, start, goal;
  int e, nq;
  for (e = 0; e < 8 && in->n > 0; e++) {
    x = u8(in) % W->w;
    y = u8(in) % W->h;
    w_block(W, x, y, u8(in) & 1);
    if (e % 3 == 0) check_clearance(W);
  }
  for (nq = 0; nq < 3 && in->n > 0; nq++) {
    astar_query q, ref;
    double c, d;
    int st, st_ref, rc;
    start = (int32_t)(u8(in) % W->n);
    goal = (int32_t)(u8(in) % W->n);
    astar_query_init(&q, start, goal);
    q.size = u8(in) % 6;                      /* 0 is out of range */
    if (u8(in) & 1) {
      q.tag_factor = W->factors;
      q.tag_count = 4;
    }
    if (u8(in) & 1) {
      q.penalty = W->penalty;
      q.penalty_scale = (double)(u8(in) % 3);
    }
    if (u8(in) % 3 == 0) q.forbid = W->forbid;
    q.stop = ASTAR_STOP_OPTIMAL;
    rc = astar_search_begin(s, W->t, &q);
    if (q.size == 0) {
      CHECK(rc == ASTAR_EINVAL);
      continue;
    }
    CHECK(rc == ASTAR_OK);
    st = run(s, in);
    if (data_error(st)) continue;
    oracle_path(W, &q, s, st);
    ref = q;
    ref.heuristic = ASTAR_H_ZERO;
    ref.stop = ASTAR_STOP_EXPAND;
    CHECK(astar_search_begin(s2, W->t, &ref) == ASTAR_OK);
    st_ref = run(s2, in);
    if (data_error(st_ref)) continue;
    oracle_path(W, &ref, s2, st_ref);
    CHECK(st == st_ref);
    if (st != ASTAR_FOUND) continue;
    c = check_cell_path(W, &q, s, q.goal);
    d = check_cell_path(W, &ref, s2, ref.goal);
    CHECK(fabs(c - d) <= tol(d));
  }
}

/* The old format's fixed run over a square or hex grid. */
static void legacy_cells(input *in, int shape) {
  world W;
  int i, nq;
  legacy_cells_build(&W, in, shape);
  for (i = 0; shape == W_HEX && i < 8 && in->n > 0; i++) {
    int32_t a = u8(in) % W.n, b = u8(in) % W.n;
    CHECK(astar_grid_line_of_sight(W.gr, a % W.w, a / W.w, b % W.w, b / W.w) ==
          astar_grid_line_of_sight(W.gr, b % W.w, b / W.w, a % W.w, a / W.w));
  }
  for (nq = 0; nq < 4 && in->n > 0; nq++) legacy_cell_query(&W, in);
  if (in->n > 0) {
    if (shape == W_SQUARE) legacy_grid_distances(&W, in);
    else legacy_hex_distances(&W, in);
  }
  if (shape == W_SQUARE && in->n > 0) legacy_sizes(&W, in);
  if (in->n > 0) fuzz_tables(W.t, in, W.s, W.s2, &W.cb);
  world_free(&W);
}

/* The old format's fixed run over a graph. */
static void legacy_graph(input *in) {
  world W;
  int nq, go_on = 1;
  graph_build(&W, in);
  for (nq = 0; nq < 4 && in->n > 0; nq++) graph_query(&W, in);
  if (in->n > 0) go_on = graph_distances(&W, in);
  if (go_on && in->n > 0) fuzz_tables(W.t, in, W.s, W.s2, &W.cb);
  world_free(&W);
}

/* ---- the lattice format: building, queries, fields ----------------------- */

/* A grid from its build chunk: the sides, a byte saying which layers
** follow (bit 0 cells, 1 penalties, 2 forbid values), then the factors. */
static void cells_build(world *W, input *in, int shape, int mode) {
  int32_t w, h, i;
  uint8_t layers;
  w = 1 + u8(in) % 16;
  h = 1 + u8(in) % 16;
  world_grid(W, shape, w, h, mode);
  layers = u8(in);
  if (layers & 1) cells_decode(W, in);
  for (i = 0; (layers & 2) && i < W->n; i++)
    W->penalty[i] = (u8(in) % 4) ? 0 : (double)(u8(in) % 8);
  for (i = 0; (layers & 4) && i < W->n; i++) W->forbid[i] = (u8(in) % 9) ? 0 : 1;
  factors_decode(W, in);
}

/* The query's modifiers from a flags byte: bit 0 the tag factors, 1 the
** penalty (a scale 0..2 follows), 2 the forbid field. */
static void mods_decode(world *W, astar_query *q, unsigned flags, input *in) {
  if (flags & 1) {
    q->tag_factor = W->factors;
    q->tag_count = 4;
  }
  if (flags & 2) {
    q->penalty = W->penalty;
    q->penalty_scale = (double)(u8(in) % 3);
  }
  if (flags & 4) q->forbid = W->forbid;
}

/* One field of q made invalid (or not: some look bad and are fine). */
static void spoil(world *W, astar_query *q, input *in) {
  switch (u8(in) % 8) {
    case 0: q->start = (u8(in) & 1) ? -1 : W->n; break;
    case 1: q->goal = (u8(in) & 1) ? INT32_MIN : W->n; break;
    case 2: q->tag_factor = W->factors; q->tag_count = (int32_t)(u8(in) % 3) - 1; break;
    case 3: q->penalty_scale = (u8(in) & 1) ? NAN : -HUGE_VAL; break;
    case 4: q->max_cost = (u8(in) & 1) ? -1 : NAN; break;
    case 5: q->weight = (u8(in) & 1) ? -0.0 : HUGE_VAL; break;
    case 6: q->size = (u8(in) & 1) ? 0 : ASTAR_MAX_UNIT + (int32_t)(u8(in) % 3); break;
    default: q->heuristic = (int32_t)(u8(in) % 16) - 4; break;
  }
}

/* A path query on a grid, every field fuzzed; sized: a unit of 2..4.
** Refused exactly when invalid, else against the oracle; a stop other than
** optimal is run again with it, which must cost the optimum. */
static void op_path(world *W, input *in, int sized) {
  astar_search *s = W->s;
  astar_query q;
  unsigned flags;
  int32_t start, goal;
  double dist[MAXN];
  int32_t next[MAXN];
  signed char link[MAXN];
  int rc, st;
  uint8_t b;
  start = (int32_t)(u8(in) % W->n);
  goal = (int32_t)(u8(in) % W->n);
  astar_query_init(&q, start, goal);
  q.heuristic = (int32_t)(u8(in) % 10) - 1;
  b = u8(in);
  q.weight = b < 160 ? (double)(b % 3) : b < 224 ? (double)(b - 160) / 32.0 : dbl(in);
  q.stop = u8(in) % 4;                      /* 3 is out of range */
  q.tie_break = u8(in) % 3;                 /* 2 is out of range */
  flags = u8(in);
  mods_decode(W, &q, flags, in);
  if (flags & 8) q.max_cost = (double)(u8(in) % 16);
  q.track_best = (flags >> 4) & 1;
  q.record_trace = q.record_visited = (flags >> 5) & 1;
  if (flags & 64) q.max_expansions = 1 + u8(in) % 32;
  q.algorithm = u8(in) % 5;                 /* 3: JPS+ (a table: op_jumps); 4 is out of range */
  q.size = sized ? 2 + u8(in) % 3 : 1;
  if (q.heuristic == ASTAR_H_CALLBACK || (u8(in) & 1)) {
    q.heuristic_fn = fuzz_h;
    q.heuristic_ctx = &W->cb;
  }
  if (flags & 128) spoil(W, &q, in);
  W->cb.calls = 0;
  W->cb.abort_at = -1; /* a table op may have left an abort armed */
  rc = astar_search_begin(s, W->t, &q);
  CHECK((rc == ASTAR_EINVAL) == query_invalid(W, &q));
  if (rc != ASTAR_OK) {
    CHECK(astar_search_step(s, 1) < 0);
    return;
  }
  CHECK((astar_jps_refusal(W->t, &q) != NULL) == jps_refused(W, &q));
  st = run(s, in);
  if (data_error(st)) return;
  CHECK(astar_search_goal(s) == q.goal);
  /* a path search is no field */
  CHECK(astar_grid_export_distances(s, W->gr, dist, next, link) == ASTAR_ESTATE);
  oracle_path(W, &q, s, st);
  if (q.record_visited) {
    size_t n, nt, i;
    const int32_t *v = astar_search_visited(s, &n);
    const astar_trace_entry *tr = astar_search_trace(s, &nt);
    CHECK(nt == n);
    for (i = 0; i < n; i++) CHECK(v[i] >= 0 && v[i] < W->n);
    for (i = 0; i < nt; i++)
      CHECK(tr[i].node >= 0 && tr[i].node < W->n && tr[i].parent >= -1 &&
            tr[i].parent < W->n && tr[i].g >= 0);
    CHECK(astar_search_bytes(s) > 0);
  }
  if (st == ASTAR_FOUND && q.stop != ASTAR_STOP_OPTIMAL) {
    q.stop = ASTAR_STOP_OPTIMAL;
    q.max_expansions = 0;
    rc = astar_search_begin(s, W->t, &q);
    if (rc != ASTAR_OK) { /* the start's heuristic */
      CHECK(data_error(rc));
      return;
    }
    st = run_all(s);
    if (data_error(st)) return;
    CHECK(st == ASTAR_FOUND);
    oracle_path(W, &q, s, st);
  }
}

/* A distance field on a grid: one to three sources (sometimes a bad one),
** either way, the modifiers, max_cost, sometimes a sized unit; every cell
** against the oracle, and the export against the search. */
static void op_field(world *W, input *in) {
  astar_search *s = W->s;
  int32_t src[3], ns = 1 + u8(in) % 3, k, v;
  double dist[MAXN];
  int32_t next[MAXN];
  signed char link[MAXN];
  astar_query q;
  unsigned flags;
  int reverse, rc, st, bad_src = 0;
  for (k = 0; k < ns; k++) src[k] = u8(in) % W->n;
  reverse = u8(in) & 1;
  flags = u8(in);
  astar_query_init(&q, 0, 0);
  mods_decode(W, &q, flags, in);
  if (flags & 8) q.max_cost = (double)(u8(in) % 16);
  if (flags & 16) q.size = 2 + u8(in) % 3;
  if (flags & 128) {
    src[0] = (u8(in) & 1) ? -1 : W->n;
    bad_src = 1;
  }
  rc = astar_search_begin_distances(s, W->t, src, (size_t)ns, reverse, &q);
  if (bad_src) {
    CHECK(rc == ASTAR_EINVAL);
    return;
  }
  CHECK(rc == ASTAR_OK);
  st = run(s, in);
  if (data_error(st)) return;
  CHECK(st == ASTAR_FOUND && astar_search_goal(s) == -1);
  oracle_field(W, &q, src, ns, reverse, s);
  CHECK(astar_grid_export_distances(s, W->gr, dist, next, link) == ASTAR_OK);
  for (v = 0; v < W->n; v++) {
    double g = astar_search_g(s, v);
    CHECK(dist[v] == (g >= 0 ? g : HUGE_VAL));
    CHECK(next[v] == astar_search_parent(s, v) && link[v] == astar_search_link(s, v));
  }
}

/* ---- the lattice format: edits, clearance, sight ------------------------- */

/* A cell of the grid from the input, sometimes outside it: just beside it,
** far off, or at the ends of int32_t. */
static void cell_decode(const world *W, input *in, int32_t *x, int32_t *y) {
  /* bytes 250..255; 251 is the side (w or h), the first column past it */
  static const int32_t far[6] = {-1, 0, 70000, INT32_MIN, INT32_MAX, -70000};
  uint8_t b = u8(in);
  *x = b < 250 ? (int32_t)(b % W->w) : b == 251 ? W->w : far[b - 250];
  b = u8(in);
  *y = b < 250 ? (int32_t)(b % W->h) : b == 251 ? W->h : far[b - 250];
}

/* Edits through the record (blocked, cost, tag; some out of range), the
** getters against it; a search begun before them refuses to step; a
** locked grid refuses them; the component labels agree with reachability. */
static void op_edit(world *W, input *in) {
  int count = 1 + u8(in) % 8, i;
  astar_query q;
  uint32_t v0 = astar_topology_version(W->t);
  int searching;
  field f;
  astar_query_init(&q, 0, W->n - 1);
  CHECK(astar_search_begin(W->s, W->t, &q) == ASTAR_OK);
  searching = astar_search_status(W->s) == ASTAR_SEARCHING;
  for (i = 0; i < count; i++) {
    int32_t x, y;
    uint8_t kind = u8(in);
    cell_decode(W, in, &x, &y);
    if (kind % 8 == 7) { /* locked: refused, nothing changes */
      astar_topology_lock(W->t, 1);
      CHECK(astar_topology_locked(W->t) == 1);
      CHECK(astar_grid_set_blocked(W->gr, x, y, 1) == ASTAR_EBUSY);
      CHECK(astar_grid_set_cost(W->gr, x, y, 2) == ASTAR_EBUSY);
      CHECK(astar_grid_set_tag(W->gr, x, y, 1) == ASTAR_EBUSY);
      astar_topology_lock(W->t, -1);
    } else if (kind % 4 == 0) {
      w_block(W, x, y, u8(in) & 1);
    } else if (kind % 4 == 1) {
      w_cost(W, x, y, dbl(in));
    } else if (kind % 4 == 2) {
      w_tag(W, x, y, u8(in) % 4);
    } else {
      w_tag(W, x, y, (u8(in) & 1) ? -1 : 65536 + (int32_t)u8(in));
    }
  }
  CHECK(astar_topology_locked(W->t) == 0);
  w_verify(W);
  if (searching && astar_topology_version(W->t) != v0)
    CHECK(astar_search_step(W->s, 0) == ASTAR_ECHANGED);
  /* components: one-cell reachability under the grid's own rules */
  for (i = 0; i < 2; i++) {
    int32_t a = u8(in) % W->n, b = u8(in) % W->n;
    cell_oracle(W, NULL, &a, 1, 0, &f);
    CHECK(astar_topology_connected(W->t, a, b) == (f.d[b] < HUGE_VAL));
  }
  CHECK(astar_topology_components_current(W->t) == 1);
}

/* The line of sight of a unit of size k from cell a to cell b: every cell
** of the unit at a sees its counterpart at b (square: by the segment
** oracle; hex: by the grid's own one-cell line of sight), and the unit
** fits at both ends. */
static void check_sight_size(world *W, int32_t a, int32_t b, int32_t k) {
  int32_t ax = a % W->w, ay = a / W->w, bx = b % W->w, by = b / W->w, lo = unit_lo(W, k);
  int32_t cx, cy, qa, ra, qb, rb;
  int want = fits_k(W, NULL, k, ax, ay) && fits_k(W, NULL, k, bx, by);
  hex_axial(W->layout, ax, ay, &qa, &ra);
  hex_axial(W->layout, bx, by, &qb, &rb);
  for (cy = ay + lo; want && cy < ay + k; cy++)
    for (cx = ax + lo; want && cx < ax + k; cx++) {
      int32_t q, r, ox, oy;
      if (!in_unit(W, k, ax, ay, cx, cy)) continue;
      if (W->shape == W_SQUARE) {
        want = los_oracle(W, cx, cy, bx + cx - ax, by + cy - ay);
        continue;
      }
      hex_axial(W->layout, cx, cy, &q, &r);
      hex_offset(W->layout, qb + q - qa, rb + r - ra, &ox, &oy);
      want = astar_grid_line_of_sight(W->gr, cx, cy, ox, oy) == 1;
    }
  CHECK(astar_grid_line_of_sight_size(W->gr, ax, ay, bx, by, k) == want);
}

/* Clearance: blocked cells set and cleared (some out of range), the layer
** against the brute force after each; then sized lines of sight. */
static void op_clear(world *W, input *in) {
  int count = 1 + u8(in) % 8, i;
  check_clearance(W);
  for (i = 0; i < count; i++) {
    int32_t x, y;
    cell_decode(W, in, &x, &y);
    w_block(W, x, y, u8(in) & 1);
    if (u8(in) & 1) check_clearance(W);
  }
  check_clearance(W);
  count = 1 + u8(in) % 4;
  for (i = 0; i < count; i++) {
    int32_t a = u8(in) % W->n, b = u8(in) % W->n;
    check_sight_size(W, a, b, 1 + u8(in) % 4);
  }
  CHECK(astar_grid_line_of_sight_size(W->gr, 0, 0, 0, 0, 0) == ASTAR_EINVAL);
  CHECK(astar_grid_line_of_sight_size(W->gr, 0, 0, 0, 0, ASTAR_MAX_UNIT + 1) == ASTAR_EINVAL);
  CHECK(astar_grid_line_of_sight_size(W->gr, W->w, 0, 0, 0, 2) == ASTAR_EINVAL);
}

/* Line of sight (square: the oracle; both: symmetric), hex geometry against
** the guide's, neighbours in direction order, visible_from as line of
** sight within the radius. */
static void op_sight(world *W, input *in) {
  int count = 1 + u8(in) % 6, i, n, d;
  int32_t xy[16], want[16];
  double vis[MAXN];
  for (i = 0; i < count; i++) {
    int32_t a = u8(in) % W->n, b = u8(in) % W->n, ax = a % W->w, ay = a / W->w, bx = b % W->w,
            by = b / W->w, q, r, q2, r2, x, y;
    int l = astar_grid_line_of_sight(W->gr, ax, ay, bx, by), want_l;
    double cx, cy;
    CHECK(l == astar_grid_line_of_sight(W->gr, bx, by, ax, ay));
    if (W->shape == W_SQUARE) {
      CHECK(l == los_oracle(W, ax, ay, bx, by));
      CHECK(astar_hex_distance(W->gr, ax, ay, bx, by) == -1);
      CHECK(astar_hex_cell_at(W->gr, 0, 0, &x, &y) == 0);
      continue;
    }
    want_l = hex_los_oracle(W, ax, ay, bx, by);
    if (want_l >= 0) CHECK(l == want_l);
    CHECK(astar_hex_distance(W->gr, ax, ay, bx, by) == hexd(W, ax, ay, bx, by));
    astar_hex_axial(W->layout, ax, ay, &q, &r);
    hex_axial(W->layout, ax, ay, &q2, &r2);
    CHECK(q == q2 && r == r2);
    astar_hex_center(W->layout, ax, ay, &cx, &cy);
    CHECK(astar_hex_cell_at(W->gr, cx, cy, &x, &y) == 1 && x == ax && y == ay);
    CHECK(astar_hex_cell_at(W->gr, NAN, cy, &x, &y) == 0);
    CHECK(astar_hex_cell_at(W->gr, 1e300, cy, &x, &y) == 0);
  }
  {
    int32_t a = u8(in) % W->n, ax = a % W->w, ay = a / W->w, v;
    uint8_t rb = u8(in);
    double radius = rb == 255 ? NAN : rb >= 200 ? -1 : (double)(rb % 8) + ((rb & 8) ? 0.5 : 0);
    n = 0;
    for (d = 0; d < (W->shape == W_HEX ? 6 : W->rule == ASTAR_DIAG_NEVER ? 4 : 8); d++) {
      int32_t x = ax + sq_dx[d], y = ay + sq_dy[d];
      if (W->shape == W_HEX) {
        int32_t q, r;
        hex_axial(W->layout, ax, ay, &q, &r);
        hex_offset(W->layout, q + hx_dq[d], r + hx_dr[d], &x, &y);
      }
      if (!cell_in(W, x, y)) continue;
      want[2 * n] = x;
      want[2 * n + 1] = y;
      n++;
    }
    CHECK(astar_grid_neighbours(W->gr, ax, ay, xy) == n);
    CHECK(memcmp(xy, want, (size_t)(2 * n) * sizeof(int32_t)) == 0);
    CHECK(astar_grid_neighbours(W->gr, -1, 0, xy) == ASTAR_EINVAL);
    i = astar_grid_visible_from(W->gr, ax, ay, radius, vis);
    if (isnan(radius)) {
      CHECK(i == ASTAR_EINVAL);
      return;
    }
    CHECK(i == ASTAR_OK);
    for (v = 0; v < W->n; v++) {
      int32_t x = v % W->w, y = v / W->w;
      int in_r = radius < 0 ||
                 (W->shape == W_HEX ? hexd(W, ax, ay, x, y) <= (int32_t)radius
                                    : (double)(x - ax) * (x - ax) + (double)(y - ay) * (y - ay) <=
                                          radius * radius);
      int want_v = in_r && astar_grid_line_of_sight(W->gr, ax, ay, x, y) == 1;
      CHECK(vis[v] == (want_v ? 1.0 : 0.0));
    }
  }
}

/* ---- the lattice format: jump point search ------------------------------- */

/* Whether heuristic h never overestimates on a grid whose steps cost their
** length (the queries jump point search serves): zero, euclidean, octile,
** chebyshev, the bisector (a distance to a line through the goal), and
** manhattan without diagonal steps. */
ORACLE
static int admissible(const world *W, int h) {
  if (h == ASTAR_H_DEFAULT || h == ASTAR_H_ZERO || h == ASTAR_H_EUCLIDEAN ||
      h == ASTAR_H_OCTILE || h == ASTAR_H_CHEBYSHEV || h == ASTAR_H_BISECTOR)
    return 1;
  return h == ASTAR_H_MANHATTAN && W->rule == ASTAR_DIAG_NEVER;
}

/* A query jump point search may serve (or not, when something spoils it):
** the refusal as recomputed here; the answers those of A* on the same
** query, and the oracle's optimum where the stop and heuristic promise it. */
static void op_jps(world *W, input *in) {
  static const double ones[4] = {1, 1, 1, 1};
  astar_search *s = W->s, *s2 = W->s2;
  astar_query q, a;
  int32_t start, goal;
  int rc, st, st2;
  field f;
  start = (int32_t)(u8(in) % W->n);
  goal = (int32_t)(u8(in) % W->n);
  astar_query_init(&q, start, goal);
  q.heuristic = (int32_t)(u8(in) % 8) - 1;
  q.stop = u8(in) % 3;
  q.tie_break = u8(in) % 2;
  q.algorithm = (u8(in) & 1) ? ASTAR_ALGO_JPS : ASTAR_ALGO_AUTO;
  q.track_best = u8(in) % 4 == 0;
  switch (u8(in) % 8) { /* something jump point search cannot serve, or not */
    case 0: q.size = 2; break;
    case 1: q.penalty = W->penalty; break;
    case 2: q.forbid = W->forbid; break;
    case 3: q.weight = 2; break;
    case 4: mods_decode(W, &q, 1, in); break;
    case 5: q.tag_factor = ones; q.tag_count = 4; break;
    default: break;
  }
  CHECK((astar_jps_refusal(W->t, &q) != NULL) == jps_refused(W, &q));
  rc = astar_search_begin(s, W->t, &q);
  CHECK((rc == ASTAR_EINVAL) == query_invalid(W, &q));
  if (rc != ASTAR_OK) return;
  st = run(s, in);
  if (data_error(st)) return;
  oracle_path(W, &q, s, st);
  a = q;
  a.algorithm = ASTAR_ALGO_ASTAR;
  CHECK(astar_search_begin(s2, W->t, &a) == ASTAR_OK);
  st2 = run_all(s2);
  if (data_error(st2)) return;
  oracle_path(W, &a, s2, st2);
  CHECK(st == st2);
  if (st != ASTAR_FOUND) return;
  if (q.stop == ASTAR_STOP_OPTIMAL ||
      (q.stop == ASTAR_STOP_EXPAND && !jps_refused(W, &q) && admissible(W, q.heuristic))) {
    double c = check_cell_path(W, &q, s, goal), c2 = check_cell_path(W, &a, s2, goal);
    cell_oracle(W, &q, &start, 1, 0, &f);
    if (!f.bad) CHECK(fabs(c - f.d[goal]) <= tol(c) && fabs(c2 - f.d[goal]) <= tol(c2));
  }
}

/* ---- the lattice format: segments, smoothing, Theta* --------------------- */

/* A query for segment work from the input: NULL (the grid's own costs), a
** plain one, one with modifiers, or a sized unit with modifiers. */
static const astar_query *seg_query(world *W, astar_query *q, input *in) {
  uint8_t mode = u8(in) % 4;
  astar_query_init(q, 0, 0);
  if (mode == 0) return NULL;
  if (mode >= 2) mods_decode(W, q, u8(in), in);
  if (mode == 3) q->size = 2 + u8(in) % 2;
  return q;
}

typedef struct walk_rec {
  int n, stop_at;
  int32_t x[MAXEV], y[MAXEV];
  double len[MAXEV];
  int corner[MAXEV];
} walk_rec;

static int walk_visit(void *ctx, int32_t x, int32_t y, double len, int corner) {
  walk_rec *r = (walk_rec *)ctx;
  CHECK(r->n < MAXEV);
  r->x[r->n] = x;
  r->y[r->n] = y;
  r->len[r->n] = len;
  r->corner[r->n] = corner;
  return r->n++ == r->stop_at ? 7 : 0;
}

/* The walker's visits against the segment oracle's events: the cells in
** order with their lengths, the two cells beside each corner. */
static void check_walk(world *W, int32_t x0, int32_t y0, int32_t x1, int32_t y1, int stop_at) {
  static walk_rec r;
  seg_ev ev[MAXEV];
  int n = seg_events(x0, y0, x1, y1, ev), i, k = 0, rc;
  double L = sqrt((double)(x1 - x0) * (x1 - x0) + (double)(y1 - y0) * (y1 - y0)), sum = 0;
  r.n = 0;
  r.stop_at = stop_at;
  rc = astar_grid_walk(W->gr, x0, y0, x1, y1, walk_visit, &r);
  for (i = 0; i < n && k < r.n; i++) {
    CHECK(r.x[k] == ev[i].x && r.y[k] == ev[i].y && r.corner[k] == ev[i].corner);
    CHECK(fabs(r.len[k] - ev[i].len) <= 1e-9 * (1 + L));
    sum += r.len[k++];
    if (!ev[i].corner || k >= r.n) continue;
    CHECK(r.x[k] == ev[i].x2 && r.y[k] == ev[i].y2 && r.corner[k] == 1 && r.len[k] == 0);
    k++;
  }
  CHECK(k == r.n);
  if (rc == 7) {
    CHECK(r.n == stop_at + 1);
    return;
  }
  CHECK(rc == 0 && i == n && fabs(sum - L) <= 1e-9 * (1 + L));
}

/* Segments between cells (some out of range) under a query: their cost,
** passage or bad cell as the oracle says; the walker's cells; line of
** sight as the oracle says. */
static void op_segment(world *W, input *in) {
  astar_query qq;
  const astar_query *q = seg_query(W, &qq, in);
  int count = 1 + u8(in) % 6, i;
  for (i = 0; i < count; i++) {
    int32_t x0, y0, x1, y1, bad = -2, obad = -3;
    double cost = -1, oc = -2;
    int rc, want;
    cell_decode(W, in, &x0, &y0);
    cell_decode(W, in, &x1, &y1);
    if (!cell_in(W, x0, y0) || !cell_in(W, x1, y1)) {
      CHECK(astar_grid_line_of_sight(W->gr, x0, y0, x1, y1) == ASTAR_EINVAL);
      CHECK(astar_grid_segment_cost(W->gr, q, x0, y0, x1, y1, &cost, &bad) == ASTAR_EINVAL);
      CHECK(astar_grid_walk(W->gr, x0, y0, x1, y1, walk_visit, NULL) == ASTAR_EINVAL);
      continue;
    }
    rc = astar_grid_segment_cost(W->gr, q, x0, y0, x1, y1, &cost, &bad);
    want = seg_oracle(W, q, x0, y0, x1, y1, seg_strict(W), 0, &oc, &obad);
    if (want == SEG_BAD) {
      CHECK(rc == ASTAR_ECOST && bad == obad && (cost == oc || (isnan(cost) && isnan(oc))));
    } else if (want == SEG_SHUT) {
      CHECK(rc == ASTAR_OK && cost == HUGE_VAL);
    } else {
      CHECK(rc == ASTAR_OK);
      CHECK(cost == oc || fabs(cost - oc) <= tol(oc) || (cost > 1e300 && oc > 1e300));
    }
    check_walk(W, x0, y0, x1, y1, (u8(in) & 1) ? -1 : u8(in) % 8);
    CHECK(astar_grid_line_of_sight(W->gr, x0, y0, x1, y1) == los_oracle(W, x0, y0, x1, y1));
  }
}

/* A path for smoothing from the input: a cell path A* finds (any unit
** size), else some cells (not a path; some out of range).  Returns the
** count; *real says which. */
static int32_t smooth_cells(world *W, astar_query *q, input *in, int32_t *cells, int *real) {
  int32_t n, i, start, goal;
  int st;
  start = (int32_t)(u8(in) % W->n);
  goal = (int32_t)(u8(in) % W->n);
  astar_query_init(q, start, goal);
  mods_decode(W, q, u8(in), in);
  if (u8(in) % 3 == 0) q->size = 2 + u8(in) % 2;
  q->stop = ASTAR_STOP_OPTIMAL;
  *real = 0;
  if (u8(in) % 4 != 0) {
    CHECK(astar_search_begin(W->s, W->t, q) == ASTAR_OK);
    st = run_all(W->s);
    if (st == ASTAR_FOUND) {
      *real = 1;
      return astar_search_path(W->s, goal, cells, NULL, NULL);
    }
  }
  n = (int32_t)(u8(in) % 6);
  for (i = 0; i < n; i++) {
    uint8_t b = u8(in);
    cells[i] = b < 250 ? (int32_t)(b % W->n) : (b & 1) ? -1 : W->n;
  }
  return n;
}

/* The largest rate among the cells a passable segment crosses. */
ORACLE
static double seg_top(const world *W, const astar_query *q, int32_t x0, int32_t y0, int32_t x1,
                      int32_t y1) {
  seg_ev ev[MAXEV];
  int n = seg_events(x0, y0, x1, y1, ev), i;
  double top = 0, r = 0;
  for (i = 0; i < n; i++)
    if (!ev[i].corner && ev[i].len > 0 && unit_rate(W, q, ev[i].x, ev[i].y, 0, &r) == 0 && r > top)
      top = r;
  return top;
}

/* Smoothing: refused on a bad list; else the kept cells start and end the
** path, in order; a shortcut passes, costs no more than the section it
** replaces and crosses no dearer cell; in all, the smoothed path never
** costs more than the path (both as the segment oracle prices them). */
static void op_smooth(world *W, input *in) {
  astar_query q;
  const astar_query *qs;
  int32_t cells[MAXN + 8], keep[MAXN + 8], bad_cell = -1, n, m, i, j, k;
  double prefix[MAXN + 8], bad_value = 0, total = 0, smoothed = 0, sec[MAXN + 8], top, r = 0;
  int real, bad_ids = 0, st;
  n = smooth_cells(W, &q, in, cells, &real);
  qs = (u8(in) % 4 == 0 && q.size == 1) ? NULL : &q;
  for (i = 0; i < n; i++) bad_ids |= cells[i] < 0 || cells[i] >= W->n;
  m = astar_grid_smooth(W->gr, qs, cells, n, keep, prefix, &bad_cell, &bad_value);
  if (n < 1 || bad_ids) {
    CHECK(m == ASTAR_EINVAL);
    return;
  }
  if (m == ASTAR_ECOST) {
    CHECK(any_bad_rate(W, qs));
    return;
  }
  CHECK(m >= 1 && m <= n && keep[0] == 0 && keep[m - 1] == n - 1);
  for (i = 1; i < m; i++) CHECK(keep[i] > keep[i - 1]);
  if (!real || any_bad_rate(W, qs)) return;
  /* the sections' costs, step by step, as the oracle prices them */
  sec[0] = 0;
  for (i = 1; i < n; i++) {
    double c = 0;
    int32_t b;
    st = seg_oracle(W, qs, cells[i - 1] % W->w, cells[i - 1] / W->w, cells[i] % W->w,
                    cells[i] / W->w, seg_strict(W), 0, &c, &b);
    sec[i] = sec[i - 1] + (st == SEG_PASS ? c : HUGE_VAL);
    CHECK(fabs(prefix[i] - sec[i]) <= tol(sec[i]) || (prefix[i] > 1e300 && sec[i] > 1e300));
  }
  total = sec[n - 1];
  for (k = 1; k < m; k++) {
    double c = 0;
    int32_t b, a = cells[keep[k - 1]], z = cells[keep[k]];
    st = seg_oracle(W, qs, a % W->w, a / W->w, z % W->w, z / W->w, seg_strict(W), 0, &c, &b);
    if (keep[k] == keep[k - 1] + 1) { /* a step of the path, kept as it is */
      smoothed += st == SEG_PASS ? c : HUGE_VAL;
      continue;
    }
    CHECK(st == SEG_PASS);
    CHECK(c <= (sec[keep[k]] - sec[keep[k - 1]]) * (1 + 1e-9) + 1e-9);
    /* no cell it crosses dearer than the dearest of the section */
    top = 0;
    for (j = keep[k - 1]; j <= keep[k]; j++)
      if (unit_rate(W, qs, cells[j] % W->w, cells[j] / W->w, 0, &r) == 0 && r > top) top = r;
    CHECK(seg_top(W, qs, a % W->w, a / W->w, z % W->w, z / W->w) <= top * (1 + 1e-9));
    smoothed += c;
  }
  CHECK(smoothed <= total * (1 + 1e-9) + 1e-9 || total == HUGE_VAL);
}

/* Runs a Theta* search in slices the input sizes. */
static int run_theta(astar_theta *t, input *in) {
  int st = ASTAR_SEARCHING, guard = 0;
  while (st == ASTAR_SEARCHING && guard++ < 100000) st = astar_theta_step(t, 1 + u8(in) % 8);
  CHECK(st != ASTAR_SEARCHING);
  CHECK(astar_theta_step(t, 1) == st);
  return st;
}

/* Theta*: refused on a bad query; a grid changed after begin refuses to
** step; ECOST only where a rate is bad; a found path starts and ends
** right, its segments pass and sum to its cost and length, it costs at
** least the smallest rate times the straight line, and (no budget, a rule
** whose every step a segment takes) it is found exactly when the oracle
** reaches the goal; else, tracking the best cell, a partial path to it. */
static void op_theta(world *W, input *in) {
  astar_query q;
  int32_t start, goal, pts[MAXN + 1], n, m, i;
  unsigned flags;
  int rc, st, invalid;
  uint8_t after;
  double cost = -1, length = -1, sum = 0, len = 0, mr;
  field f;
  if (!W->th) {
    size_t nv;
    W->th = astar_theta_new(NULL, NULL);
    CHECK(W->th != NULL);
    CHECK(astar_theta_points(W->th, 0, NULL, NULL, NULL) == 0);
    CHECK(astar_theta_bytes(W->th) > 0);
    (void)astar_theta_visited(W->th, &nv);
  }
  start = (int32_t)(u8(in) % W->n);
  goal = (int32_t)(u8(in) % W->n);
  astar_query_init(&q, start, goal);
  flags = u8(in);
  mods_decode(W, &q, flags, in);
  if (flags & 8) q.size = 2 + u8(in) % 2;
  if (flags & 16) q.max_cost = (double)(u8(in) % 16);
  if (flags & 32) q.max_expansions = 1 + u8(in) % 16;
  q.weight = (flags & 64) ? (double)(u8(in) % 3) : 1.0;
  q.record_visited = 1;
  invalid = 0;
  if (flags & 128) {
    switch (u8(in) % 5) {
      case 0: q.cost_fn = fuzz_cost; q.cost_ctx = &W->cb; break;
      case 1: q.size = (u8(in) & 1) ? 0 : ASTAR_MAX_UNIT + 1; break;
      case 2: q.weight = (u8(in) & 1) ? NAN : -1; break;
      case 3: q.start = (u8(in) & 1) ? -1 : W->n; break;
      default: q.goal = W->n; break;
    }
    invalid = 1;
  }
  after = u8(in); /* 16: track the best cell; 32: rates may go negative; % 16 == 0: an edit */
  q.track_best = (after & 16) != 0;
  if (after & 32) q.penalty_scale = -q.penalty_scale;
  rc = astar_theta_begin(W->th, W->gr, &q);
  if (invalid) {
    CHECK(rc == ASTAR_EINVAL);
    return;
  }
  CHECK(rc == ASTAR_OK);
  if (after % 16 == 0) { /* an edit after begin */
    int32_t x = u8(in) % W->w, y = u8(in) % W->h;
    uint32_t v0 = astar_topology_version(W->t);
    int was = astar_theta_status(W->th);
    w_block(W, x, y, !W->blk[y * W->w + x]);
    CHECK(astar_topology_version(W->t) != v0);
    CHECK(astar_theta_step(W->th, 0) == (was == ASTAR_SEARCHING ? ASTAR_ECHANGED : was));
    return;
  }
  st = run_theta(W->th, in);
  CHECK(astar_theta_status(W->th) == st);
  if (st == ASTAR_ECOST || st == ASTAR_EOVERFLOW) {
    double v;
    int32_t b = astar_theta_bad(W->th, &v);
    CHECK(b >= 0 && b < W->n);
    if (st == ASTAR_ECOST) CHECK(any_bad_rate(W, &q));
    return;
  }
  CHECK(st == ASTAR_FOUND || st == ASTAR_UNREACHABLE || st == ASTAR_MAX_COST ||
        st == ASTAR_MAX_EXPANSIONS);
  if (st == ASTAR_MAX_COST) CHECK(q.max_cost < HUGE_VAL);
  if (st == ASTAR_MAX_EXPANSIONS) CHECK(q.max_expansions > 0);
  {
    size_t nv, j;
    const int32_t *v = astar_theta_visited(W->th, &nv);
    for (j = 0; j < nv; j++) CHECK(v[j] >= 0 && v[j] < W->n);
    CHECK(astar_theta_stats(W->th)->expanded == nv);
  }
  if (!any_bad_rate(W, &q) && q.max_cost == HUGE_VAL && q.max_expansions == 0 &&
      W->rule != ASTAR_DIAG_ALWAYS) {
    cell_oracle(W, &q, &start, 1, 0, &f);
    if (!f.bad) CHECK((st == ASTAR_FOUND) == (f.d[goal] < HUGE_VAL));
  }
  if (st != ASTAR_FOUND) {
    int32_t b = astar_theta_best(W->th);
    CHECK(b >= -1 && b < W->n);
    CHECK((b >= 0) == (q.track_best && astar_theta_stats(W->th)->expanded > 0));
    if (b >= 0) { /* the partial path to it */
      m = astar_theta_points(W->th, b, pts, &cost, &length);
      CHECK(m >= 1 && pts[0] == start && pts[m - 1] == b);
    }
    return;
  }
  n = astar_theta_points(W->th, goal, NULL, NULL, NULL);
  CHECK(n >= 1 && n <= W->n);
  m = astar_theta_points(W->th, goal, pts, &cost, &length);
  CHECK(m >= 1 && m <= n && pts[0] == start && pts[m - 1] == goal);
  CHECK(astar_theta_points(W->th, -1, pts, NULL, NULL) == 0);
  for (i = 1; i < m; i++) {
    double c = 0, dx = pts[i] % W->w - pts[i - 1] % W->w, dy = pts[i] / W->w - pts[i - 1] / W->w;
    int32_t b;
    CHECK(seg_oracle(W, &q, pts[i - 1] % W->w, pts[i - 1] / W->w, pts[i] % W->w, pts[i] / W->w,
                     seg_strict(W), 0, &c, &b) == SEG_PASS);
    sum += c;
    len += sqrt(dx * dx + dy * dy);
  }
  CHECK(fabs(cost - sum) <= tol(sum) || (cost > 1e300 && sum > 1e300));
  CHECK(fabs(length - len) <= tol(len));
  CHECK(cost <= q.max_cost * (1 + 1e-9) + 1e-9);
  mr = min_rate(W, &q);
  {
    double ex = goal % W->w - start % W->w, ey = goal / W->w - start / W->w;
    CHECK(cost >= mr * sqrt(ex * ex + ey * ey) * (1 - 1e-9));
    CHECK(length >= sqrt(ex * ex + ey * ey) * (1 - 1e-9));
  }
  if (!q.penalty && !q.tag_factor && q.size <= 1 && !W->cost_layer)
    CHECK(fabs(cost - length) <= tol(length)); /* uniform rates: a cost is a length */
}

/* ---- the lattice format: field repair ------------------------------------ */

/* An exported field's links: each reached cell but a source has an allowed
** step to its next cell (toward the source when reverse, from it
** otherwise), and that step's cost plus the next cell's is exactly its own. */
static void check_field_links(const world *W, const astar_query *q, const int32_t *src, int ns,
                              int reverse, const double *dist, const int32_t *next,
                              const signed char *link) {
  int32_t v, i;
  for (v = 0; v < W->n; v++) {
    int32_t p = next[v], vx = v % W->w, vy = v / W->w, px, py;
    int is_src = 0;
    double c = 0;
    if (dist[v] == HUGE_VAL) {
      CHECK(p == -1 && link[v] == -1);
      continue;
    }
    for (i = 0; i < ns; i++) is_src |= src[i] == v;
    if (link[v] < 0) {
      CHECK(p == -1 && dist[v] == 0 && is_src);
      continue;
    }
    CHECK(p >= 0 && p < W->n && dist[p] < HUGE_VAL);
    px = p % W->w;
    py = p / W->w;
    if (reverse) {
      CHECK(may_step(W, q, vx, vy, px, py) && dir_is(W, link[v], vx, vy, px, py));
      CHECK(enter_cost(W, q, step_kind(W, vx, vy, px, py), px, py, &c));
    } else {
      CHECK(may_step(W, q, px, py, vx, vy) && dir_is(W, link[v], px, py, vx, vy));
      CHECK(enter_cost(W, q, step_kind(W, px, py, vx, vy), vx, vy, &c));
    }
    CHECK(dist[v] == dist[p] + c);
  }
}

/* A fresh field into dist, next, link; 0 when a bad value stopped it. */
static int fresh_field(world *W, astar_search *s, const int32_t *src, int ns, int reverse,
                       const astar_query *q, double *dist, int32_t *next, signed char *link) {
  int st;
  CHECK(astar_search_begin_distances(s, W->t, src, (size_t)ns, reverse, q) == ASTAR_OK);
  st = run_all(s);
  if (data_error(st)) return 0;
  CHECK(st == ASTAR_FOUND);
  CHECK(astar_grid_export_distances(s, W->gr, dist, next, link) == ASTAR_OK);
  return 1;
}

/*
** Field repair: a distance field (sources, either way, the modifiers,
** sometimes max_cost), the change log on, then rounds of edits (blocked,
** costs, tags), the log read back, the field repaired and exported over
** itself: every cell equal to a fresh search's, exactly, and to the
** oracle's; its links consistent.  A log that overflows is reported
** exactly when it holds fewer changes than were made.  Repair refuses a
** cost callback and bad ids (sized units it repairs: a2643d4), and gives
** up (EINVAL: begin again) when over half the field hangs on the changes.
*/
static void op_repair(world *W, input *in) {
  static double dist[MAXN], fdist[MAXN];
  static int32_t next[MAXN], fnext[MAXN];
  static signed char link[MAXN], flink[MAXN];
  astar_search *s = W->s;
  int32_t src[3], ns = 1 + u8(in) % 3, k, v, changed[64], bad_id = -1;
  astar_query q, h;
  unsigned flags;
  int reverse, rounds, round, rc, st;
  size_t cap, nc;
  uint32_t since;
  field f;
  for (k = 0; k < ns; k++) src[k] = u8(in) % W->n;
  reverse = u8(in) & 1;
  flags = u8(in);
  astar_query_init(&q, 0, 0);
  mods_decode(W, &q, flags, in);
  if (flags & 8) q.max_cost = (double)(u8(in) % 16);
  if (!fresh_field(W, s, src, ns, reverse, &q, dist, next, link)) return;
  /* what repair refuses */
  h = q;
  h.cost_fn = fuzz_cost;
  h.cost_ctx = &W->cb;
  CHECK(astar_grid_repair_distances(s, W->gr, src, (size_t)ns, reverse, &h, dist, link, NULL, 0) ==
        ASTAR_EINVAL);
  CHECK(astar_grid_repair_distances(s, W->gr, &bad_id, 1, reverse, &q, dist, link, NULL, 0) ==
        ASTAR_EINVAL);
  CHECK(astar_grid_repair_distances(s, W->gr, src, (size_t)ns, reverse, &q, dist, link, &W->n, 1) ==
        ASTAR_EINVAL);
  cap = 1 + u8(in) % 24;
  CHECK(astar_grid_track_changes(W->gr, cap) == ASTAR_OK);
  if (cap > W->log_cap) W->log_cap = cap; /* a smaller cap keeps the log */
  since = astar_topology_version(W->t);
  rounds = 1 + u8(in) % 3;
  for (round = 0; round < rounds; round++) {
    int edits = u8(in) % 6, e, nm = 0;
    int32_t mine[8]; /* the cells this round's edits changed, in order */
    uint32_t made;
    uint64_t slice;
    for (e = 0; e < edits; e++) {
      int32_t x = u8(in) % W->w, y = u8(in) % W->h, id = y * W->w + x, tag = W->tag[id];
      uint8_t kind = u8(in) % 3;
      double cost = W->cost[id];
      if (kind == 0) w_block(W, x, y, !W->blk[id]);
      else if (kind == 1) w_cost(W, x, y, dbl(in));
      else w_tag(W, x, y, u8(in) % 4);
      if (kind == 0 || W->cost[id] != cost || W->tag[id] != tag) mine[nm++] = id;
    }
    slice = 1 + u8(in) % 64;
    made = astar_topology_version(W->t) - since;
    CHECK(made == (uint32_t)nm); /* one version per change, none for the rest */
    rc = astar_grid_changes(W->gr, since, changed, 64, &nc);
    if (made > W->log_cap || made > 64) { /* the log cannot tell: start over */
      CHECK(rc == ASTAR_EOVERFLOW);
      if (!fresh_field(W, s, src, ns, reverse, &q, dist, next, link)) return;
      since = astar_topology_version(W->t);
      continue;
    }
    CHECK(rc == ASTAR_OK && nc == made);
    for (k = 0; k < nm; k++) CHECK(changed[k] == mine[nm - 1 - k]); /* newest first */
    rc = astar_grid_repair_distances(s, W->gr, src, (size_t)ns, reverse, &q, dist, link, changed,
                                     nc);
    if (rc == ASTAR_EINVAL) { /* over half the field hangs on the changes: begin again */
      if (!fresh_field(W, s, src, ns, reverse, &q, dist, next, link)) return;
      since = astar_topology_version(W->t);
      continue;
    }
    CHECK(rc == ASTAR_OK);
    st = run_slices(s, slice);
    if (data_error(st)) return;
    CHECK(st == ASTAR_FOUND);
    CHECK(astar_grid_export_distances(s, W->gr, dist, next, link) == ASTAR_OK);
    since = astar_topology_version(W->t);
    if (!fresh_field(W, W->s2, src, ns, reverse, &q, fdist, fnext, flink)) return;
    for (v = 0; v < W->n; v++) CHECK(dist[v] == fdist[v]);
    check_field_links(W, &q, src, ns, reverse, dist, next, link);
    cell_oracle(W, &q, src, ns, reverse, &f);
    for (v = 0; !f.bad && v < W->n; v++)
      CHECK(dist[v] == (f.d[v] <= q.max_cost ? f.d[v] : HUGE_VAL));
  }
}

/* ---- the lattice format: step faults, the forbidding tag ----------------- */

/* astar_grid_step_fault on pairs of cells (some ids out of range) against
** the fault oracle, fault and blamed cell; then the cells reached by its OK
** steps from a source are exactly those a distance search reaches. */
static void op_fault(world *W, input *in) {
  astar_query q, dq;
  const astar_query *qp;
  unsigned char reach[MAXN];
  int32_t queue[MAXN], head = 0, tail = 0, a, v;
  int count, i, st;
  astar_query_init(&q, 0, 0);
  mods_decode(W, &q, u8(in), in);
  q.size = 1 + u8(in) % 3;
  qp = (u8(in) % 4 == 0) ? NULL : &q;
  count = 1 + u8(in) % 8;
  for (i = 0; i < count; i++) {
    uint8_t b = u8(in);
    int32_t from = b < 250 ? (int32_t)(b % (W->n + 1)) - 1 : (b & 1) ? -2 : W->n,
            to = (int32_t)(u8(in) % W->n), cell = -5;
    int f, want, blame;
    if (u8(in) % 16 == 0) to = (u8(in) & 1) ? -1 : W->n;
    f = astar_grid_step_fault(W->gr, qp, from, to, &cell);
    if (to < 0 || to >= W->n || from < -1 || from >= W->n) {
      CHECK(f == ASTAR_EINVAL);
      continue;
    }
    want = fault_oracle(W, qp, from, to, &blame);
    CHECK(f == want);
    check_blame(W, qp, to, blame, cell);
    CHECK(astar_grid_step_fault(W->gr, qp, from, to, NULL) == want);
  }
  a = u8(in) % W->n;
  memset(reach, 0, sizeof reach);
  if (astar_grid_step_fault(W->gr, qp, -1, a, NULL) == ASTAR_STEP_OK) {
    reach[a] = 1;
    queue[tail++] = a;
  }
  while (head < tail) {
    int32_t u = queue[head++], dx, dy;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        int32_t x = u % W->w + dx, y = u / W->w + dy;
        if (!cell_in(W, x, y) || reach[y * W->w + x]) continue;
        if (astar_grid_step_fault(W->gr, qp, u, y * W->w + x, NULL) != ASTAR_STEP_OK) continue;
        reach[y * W->w + x] = 1;
        queue[tail++] = y * W->w + x;
      }
  }
  if (qp) dq = q;
  else astar_query_init(&dq, 0, 0);
  CHECK(astar_search_begin_distances(W->s, W->t, &a, 1, 0, &dq) == ASTAR_OK);
  st = run_all(W->s);
  if (data_error(st)) return;
  for (v = 0; v < W->n; v++) CHECK((astar_search_g(W->s, v) >= 0) == reach[v]);
}

/* Segment costs and Theta* under two queries that forbid the same cells
** two ways: the same answers. */
static void forbid_segments(world *W, const astar_query *qa, const astar_query *qb, input *in) {
  int32_t pa[MAXN + 1], pb[MAXN + 1], na, nb, i, x0, y0, x1, y1, ba = -1, bb = -1;
  double ca = 0, cb = 0;
  int ra, rb;
  cell_decode(W, in, &x0, &y0);
  cell_decode(W, in, &x1, &y1);
  if (cell_in(W, x0, y0) && cell_in(W, x1, y1)) {
    ra = astar_grid_segment_cost(W->gr, qa, x0, y0, x1, y1, &ca, &ba);
    rb = astar_grid_segment_cost(W->gr, qb, x0, y0, x1, y1, &cb, &bb);
    CHECK(ra == rb && ba == bb && (ca == cb || (isnan(ca) && isnan(cb))));
  }
  if (!W->th) {
    W->th = astar_theta_new(NULL, NULL);
    CHECK(W->th != NULL);
  }
  if (astar_theta_begin(W->th, W->gr, qa) != ASTAR_OK) return;
  ra = astar_theta_step(W->th, 0);
  na = ra == ASTAR_FOUND ? astar_theta_points(W->th, qa->goal, pa, &ca, NULL) : 0;
  CHECK(astar_theta_begin(W->th, W->gr, qb) == ASTAR_OK);
  rb = astar_theta_step(W->th, 0);
  nb = rb == ASTAR_FOUND ? astar_theta_points(W->th, qb->goal, pb, &cb, NULL) : 0;
  CHECK(ra == rb && na == nb);
  for (i = 0; i < na; i++) CHECK(pa[i] == pb[i]);
  if (na > 0) CHECK(ca == cb);
}

/* A cell whose tag's factor forbids is a forbidden cell: query A forbids
** the cells of tag T in its forbid field (T's factor 1), query B by T's
** factor; paths (cells, costs, statistics), fields, faults, segments,
** Theta* and smoothing agree exactly. */
static void op_forbid(world *W, input *in) {
  static double ff[MAXN];
  double fa[4], fb[4];
  astar_query qa, qb;
  int32_t T = 1 + u8(in) % 3, i, start, goal, na, nb, pa[MAXN + 1], pb[MAXN + 1];
  int base = u8(in) & 1, ra, rb, reverse;
  unsigned flags;
  memcpy(fa, W->factors, sizeof fa);
  memcpy(fb, W->factors, sizeof fb);
  fa[T] = 1.0;
  fb[T] = ASTAR_FORBID;
  for (i = 0; i < W->n; i++) ff[i] = ((base && W->forbid[i] != 0) || W->tag[i] == T) ? 1 : 0;
  start = (int32_t)(u8(in) % W->n);
  goal = (int32_t)(u8(in) % W->n);
  astar_query_init(&qa, start, goal);
  qa.heuristic = (int32_t)(u8(in) % 8) - 1;
  if (qa.heuristic >= 0 && !takes_heuristic(W, qa.heuristic)) qa.heuristic = ASTAR_H_ZERO;
  qa.stop = u8(in) % 3;
  qa.algorithm = ASTAR_ALGO_ASTAR; /* B, with no tag layer, could jump: other statistics */
  flags = u8(in);
  mods_decode(W, &qa, flags & 2, in);
  if (flags & 8) qa.size = 2 + u8(in) % 2;
  qb = qa;
  qa.tag_factor = fa;
  qa.tag_count = 4;
  qa.forbid = ff;
  qb.tag_factor = fb;
  qb.tag_count = 4;
  qb.forbid = base ? W->forbid : NULL;
  /* paths */
  ra = astar_search_begin(W->s, W->t, &qa);
  rb = astar_search_begin(W->s2, W->t, &qb);
  CHECK(ra == rb);
  if (ra == ASTAR_OK) {
    ra = run_all(W->s);
    rb = run_all(W->s2);
    CHECK(ra == rb);
    CHECK(astar_search_stats(W->s)->expanded == astar_search_stats(W->s2)->expanded);
    if (ra == ASTAR_FOUND) {
      double ca = -1, cb = -2;
      na = astar_search_path(W->s, goal, pa, NULL, &ca);
      nb = astar_search_path(W->s2, goal, pb, NULL, &cb);
      CHECK(na == nb && ca == cb && memcmp(pa, pb, (size_t)na * sizeof(int32_t)) == 0);
      if (!(W->abil & ASTAR_CAN_SEGMENTS) || qa.size > 1) {
        /* nothing more for smoothing */
      } else {
        int32_t ka[MAXN + 1], kb[MAXN + 1];
        double pra[MAXN + 1], prb[MAXN + 1];
        int32_t ma = astar_grid_smooth(W->gr, &qa, pa, na, ka, pra, NULL, NULL);
        int32_t mb = astar_grid_smooth(W->gr, &qb, pb, nb, kb, prb, NULL, NULL);
        CHECK(ma == mb);
        for (i = 0; i < ma; i++) CHECK(ka[i] == kb[i]);
      }
    }
  }
  /* fields */
  reverse = u8(in) & 1;
  ra = astar_search_begin_distances(W->s, W->t, &start, 1, reverse, &qa);
  rb = astar_search_begin_distances(W->s2, W->t, &start, 1, reverse, &qb);
  CHECK(ra == rb && ra == ASTAR_OK);
  ra = run_all(W->s);
  rb = run_all(W->s2);
  CHECK(ra == rb);
  for (i = 0; ra == ASTAR_FOUND && i < W->n; i++)
    CHECK(astar_search_g(W->s, i) == astar_search_g(W->s2, i));
  /* faults */
  for (i = 0; i < 4; i++) {
    int32_t from = (int32_t)(u8(in) % (W->n + 1)) - 1, to = (int32_t)(u8(in) % W->n);
    int fa_ = astar_grid_step_fault(W->gr, &qa, from, to, NULL);
    int fb_ = astar_grid_step_fault(W->gr, &qb, from, to, NULL);
    CHECK(fa_ == fb_ || (fa_ == ASTAR_STEP_FORBIDDEN && fb_ == ASTAR_STEP_TAG));
  }
  if (W->abil & ASTAR_CAN_SEGMENTS) forbid_segments(W, &qa, &qb, in);
}


/* ---- the lattice format: the jump table, edits as one change ------------- */

/* Grid W's jump table against a fresh build on a grid of the same cells
** (a repaired table must be exactly a fresh one). */
static void jumps_fresh(const world *W) {
  astar_grid *g = astar_grid_new(W->w, W->h, W->rule, NULL, NULL);
  const int8_t *ta, *tb;
  size_t na = 0, nb = 0;
  int32_t i;
  CHECK(g != NULL);
  for (i = 0; i < W->n; i++)
    if (W->blk[i]) CHECK(astar_grid_set_blocked(g, i % W->w, i / W->w, 1) == ASTAR_OK);
  CHECK(astar_grid_precompute_jumps(g, 1) == ASTAR_OK);
  ta = astar_grid_jump_table(W->gr, &na);
  tb = astar_grid_jump_table(g, &nb);
  CHECK(ta != NULL && tb != NULL && na == nb);
  CHECK(na == (size_t)(W->w + 2) * (size_t)(W->h + 2) * 8);
  CHECK(memcmp(ta, tb, na * sizeof *ta) == 0);
  astar_grid_free(g);
}

/* The precomputed mode (JPS+, square grids): the table is built exactly on
** no_corner_cutting grids (EINVAL elsewhere); blocked-bit edits between
** queries repair it to a fresh build's; a query under JPS_PLUS (or AUTO,
** which may take the table) is refused exactly where astar.h says (what
** JPS refuses, the rule, a unit, no table: plus_refused), else answers as
** A* and the oracle; sometimes the table is dropped again. */
static void op_jumps(world *W, input *in) {
  int ncc = W->rule == ASTAR_DIAG_NO_CORNER_CUTTING, rounds = 1 + u8(in) % 4, r;
  if (W->jumps) jumps_fresh(W); /* repaired by the ops since the last build */
  CHECK(astar_grid_precompute_jumps(W->gr, 1) == (ncc ? ASTAR_OK : ASTAR_EINVAL));
  W->jumps = ncc;
  CHECK((astar_grid_has_jumps(W->gr) != 0) == W->jumps);
  for (r = 0; r < rounds; r++) {
    astar_query q, a;
    int st, st2, i, edits = u8(in) % 4;
    int32_t start, goal;
    field f;
    for (i = 0; i < edits; i++) {
      int32_t x, y;
      cell_decode(W, in, &x, &y);
      w_block(W, x, y, u8(in) & 1);
    }
    if (W->jumps && edits) jumps_fresh(W);
    start = (int32_t)(u8(in) % W->n);
    goal = (int32_t)(u8(in) % W->n);
    astar_query_init(&q, start, goal);
    q.algorithm = (u8(in) & 1) ? ASTAR_ALGO_JPS_PLUS : ASTAR_ALGO_AUTO;
    q.stop = u8(in) % 3;
    switch (u8(in) % 6) { /* something the table cannot serve, or not */
      case 0: q.size = 2; break;
      case 1: q.weight = 2; break;
      case 2: mods_decode(W, &q, u8(in), in); break;
      case 3: q.track_best = 1; break;
      default: break;
    }
    CHECK((astar_jps_plus_refusal(W->t, &q) != NULL) == plus_refused(W, &q));
    st = astar_search_begin(W->s, W->t, &q);
    CHECK((st == ASTAR_EINVAL) == query_invalid(W, &q));
    if (st != ASTAR_OK) continue;
    st = run_slices(W->s, (uint64_t)(1 + 3 * r)); /* reads nothing: rounds stay aligned */
    if (data_error(st)) continue;
    oracle_path(W, &q, W->s, st);
    a = q;
    a.algorithm = ASTAR_ALGO_ASTAR;
    CHECK(astar_search_begin(W->s2, W->t, &a) == ASTAR_OK);
    st2 = run_all(W->s2);
    if (data_error(st2)) continue;
    CHECK(st == st2);
    if (st == ASTAR_FOUND && (q.stop == ASTAR_STOP_OPTIMAL ||
                              (q.stop == ASTAR_STOP_EXPAND && !jps_refused(W, &q)))) {
      double c = check_cell_path(W, &q, W->s, goal), c2 = check_cell_path(W, &a, W->s2, goal);
      cell_oracle(W, &q, &start, 1, 0, &f);
      if (!f.bad) CHECK(fabs(c - f.d[goal]) <= tol(c) && fabs(c2 - f.d[goal]) <= tol(c2));
    }
  }
  if (u8(in) % 4 == 0) {
    CHECK(astar_grid_precompute_jumps(W->gr, 0) == ASTAR_OK && !astar_grid_has_jumps(W->gr));
    W->jumps = 0;
  }
}

/* One-cell reachability from a to b under the grid's own rules, with the
** record's blocked cells (the oracle). */
ORACLE
static int reaches(const world *W, int32_t a, int32_t b) {
  field f;
  cell_oracle(W, NULL, &a, 1, 0, &f);
  return f.d[b] < HUGE_VAL;
}

/* Edits as one change (astar_grid_edits_begin/_end, nested once or twice):
** each does what it does alone (the getters against the record), the
** version moves by one when any changed something and not at all
** otherwise; then the components against reachability recomputed here:
** connected, and would_disconnect (the node blocked in the record only),
** which changes nothing of the grid (its version stays). */
static void op_bulk(world *W, input *in) {
  int count = 1 + u8(in) % 12, nest = 1 + u8(in) % 2, i, k, changed = 0;
  uint32_t v0 = astar_topology_version(W->t);
  for (k = 0; k < nest; k++) astar_grid_edits_begin(W->gr);
  for (i = 0; i < count; i++) {
    int32_t x, y, c = -1;
    uint8_t kind = u8(in);
    unsigned char b0 = 0;
    double c0 = 0;
    int32_t t0 = 0;
    cell_decode(W, in, &x, &y);
    if (cell_in(W, x, y)) {
      c = y * W->w + x;
      b0 = W->blk[c];
      c0 = W->cost[c];
      t0 = W->tag[c];
    }
    if (kind % 3 == 0) w_block(W, x, y, u8(in) & 1);
    else if (kind % 3 == 1) w_cost(W, x, y, (double)(u8(in) % 4));
    else w_tag(W, x, y, u8(in) % 4);
    if (c >= 0 && (W->blk[c] != b0 || W->cost[c] != c0 || W->tag[c] != t0)) changed = 1;
  }
  for (k = 0; k < nest; k++) astar_grid_edits_end(W->gr);
  CHECK(astar_topology_version(W->t) == v0 + (uint32_t)changed);
  w_verify(W);
  for (i = 0; i < 2; i++) {
    int32_t node = (int32_t)(u8(in) % W->n), ids[4], n = (int32_t)(u8(in) % 5), j, l;
    uint32_t v = astar_topology_version(W->t);
    unsigned char before[4][4];
    int want = 0;
    for (j = 0; j < n; j++) ids[j] = (int32_t)(u8(in) % W->n);
    for (j = 0; j < n; j++)
      for (l = 0; l < n; l++) before[j][l] = (unsigned char)reaches(W, ids[j], ids[l]);
    for (j = 0; j + 1 < n; j++)
      CHECK(astar_topology_connected(W->t, ids[j], ids[j + 1]) == before[j][j + 1]);
    if (!W->blk[node] && n >= 2) {
      W->blk[node] = 1; /* the record only: the grid stays as it is */
      for (j = 0; j < n; j++)
        for (l = 0; l < n; l++)
          if (ids[j] != ids[l] && before[j][l] && !reaches(W, ids[j], ids[l])) want = 1;
      W->blk[node] = 0;
    }
    CHECK(astar_topology_would_disconnect(W->t, node, ids, (size_t)n) == want);
    CHECK(astar_topology_version(W->t) == v);
    /* a real question (two cells, the node open) brings the labels up to
    ** date; fewer cells or a blocked node are answered with no work */
    if (n >= 2 && !W->blk[node]) CHECK(astar_topology_components_current(W->t));
  }
}

/* ---- the lattice format: query repair ------------------------------------ */

/* Whether astar.h says astar_search_repair refuses running search s of q on
** a grid whatever the changes (JPS, a callback, bisectors, manhattan where
** not the default, weight above 1, a stop other than "expand", budgets,
** partial paths, anything recorded).  A distance search (dist) ignores the
** heuristic, weight, stop and track_best (astar_search_begin_distances). */
static int qr_refused(const world *W, const astar_search *s, const astar_query *q, int dist) {
  int h = q->heuristic;
  if (q->cost_fn != NULL || q->max_expansions != 0 || q->max_cost != HUGE_VAL ||
      q->record_trace || q->record_visited)
    return 1;
  if (dist) return 0;
  if (astar_search_jps(s) || h == ASTAR_H_CALLBACK || !(q->weight <= 1.0) ||
      q->stop != ASTAR_STOP_EXPAND || q->track_best)
    return 1;
  if (h == ASTAR_H_BISECTOR || h == ASTAR_H_FULL_BISECTOR) return 1;
  return h == ASTAR_H_MANHATTAN && !(W->shape == W_SQUARE && W->rule == ASTAR_DIAG_NEVER);
}

/* Whether q's estimate is admissible on the grid as it is (astar.h's
** condition for repair's exact costs): the zero estimate, or a kind that
** measures steps by their length and no usable cell cheaper than 1. */
static int qr_admissible(const world *W, const astar_query *q) {
  int h = q->heuristic;
  if (h == ASTAR_H_ZERO) return 1;
  if (W->shape == W_HEX ? (h != ASTAR_H_DEFAULT && h != ASTAR_H_HEX) : !admissible(W, h)) return 0;
  return min_rate(W, q) >= 1.0;
}

/* One edit of the world that a search's repair is told of: grids toggle
** blocked, set a cost or a tag; graphs toggle a node, set an edge's cost or
** add an edge (each through the harness's record). */
static double qr_cost(input *in) { return (u8(in) & 1) ? (double)(u8(in) % 6) : dbl(in); }

static void qr_edit(world *W, input *in) {
  uint8_t kind = u8(in) % 3;
  if (W->shape != W_GRAPH) {
    int32_t x = u8(in) % W->w, y = u8(in) % W->h, id = y * W->w + x;
    if (kind == 0) w_block(W, x, y, !W->blk[id]);
    else if (kind == 1) w_cost(W, x, y, qr_cost(in));
    else w_tag(W, x, y, u8(in) % 4);
  } else if (kind == 0) {
    int32_t id = u8(in) % W->n;
    CHECK(astar_graph_set_enabled(W->g, id, !W->enabled[id]) == ASTAR_OK);
    W->enabled[id] = !W->enabled[id];
  } else if (kind == 1 && W->ne > 0) {
    int32_t e = u8(in) % W->ne;
    double c = qr_cost(in);
    int rc = astar_graph_set_cost(W->g, e, c);
    CHECK((rc == ASTAR_OK) == (c >= 0 && isfinite(c)));
    if (rc == ASTAR_OK) W->ecost[e] = c;
  } else if (W->ne < MAXE) {
    int32_t a = u8(in) % W->n, b = u8(in) % W->n, tag = u8(in) % 4, id;
    double c = qr_cost(in);
    int rc = astar_graph_add_edge(W->g, a, b, c, tag, &id);
    CHECK((rc == ASTAR_OK) == (c >= 0 && isfinite(c)));
    if (rc != ASTAR_OK) return;
    CHECK(id == W->ne);
    W->efrom[W->ne] = a;
    W->eto[W->ne] = b;
    W->etag[W->ne] = tag;
    W->ecost[W->ne++] = c;
  }
}

/* Begins q on s: a path search, or a distance search from src when ns > 0. */
static int qr_begin(world *W, astar_search *s, const astar_query *q, const int32_t *src, int ns,
                    int reverse) {
  if (ns > 0) return astar_search_begin_distances(s, W->t, src, (size_t)ns, reverse, q);
  return astar_search_begin(s, W->t, q);
}

/*
** Query repair: a path search (or a distance search) begun with the change
** log on, stepped part way, edits, the changes read back
** (astar_grid_changes / astar_graph_changes), astar_search_repair, run to
** the end.  On a finished search repair is ESTATE; on a grid it is EINVAL
** exactly where qr_refused says (or over the half-reset rule); a bad id is
** EINVAL.  After EINVAL, beginning again works.  After OK the search ends
** as a fresh search on the edited topology: the same status, the same cost
** (a path checked against the oracle; exactly the fresh search's when that
** is the oracle's optimum and the estimate admissible: graphs' repair
** refuses the others), every cell of a field exactly the fresh one's.
*/
static void op_qrepair(world *W, input *in) {
  astar_search *s = W->s, *f = W->s2;
  astar_query q;
  int32_t src[2], changed[64];
  int ns = 0, reverse, edits, e, rc, st, fst, spoil_it, bad_id;
  unsigned flags;
  uint32_t since;
  uint64_t pre, slice;
  size_t nc = 0, nreset = 0;
  int graph = W->shape == W_GRAPH;
  astar_query_init(&q, (int32_t)(u8(in) % W->n), (int32_t)(u8(in) % W->n));
  flags = u8(in);
  mods_decode(W, &q, flags, in);
  if (flags & 8) { /* a distance search */
    ns = 1 + u8(in) % 2;
    src[0] = q.start;
    src[1] = q.goal;
  }
  reverse = (flags >> 4) & 1;
  if (!graph && (flags & 32)) q.size = 2;
  q.heuristic = (int32_t)(u8(in) % 9) - 1;
  if (q.heuristic == ASTAR_H_CALLBACK) {
    q.heuristic_fn = fuzz_h;
    q.heuristic_ctx = &W->cb;
  }
  q.algorithm = u8(in) % 3; /* auto, A*, JPS (refused by repair) */
  spoil_it = (flags & 64) ? u8(in) % 6 : -1;
  if (spoil_it == 0) q.weight = 2;
  else if (spoil_it == 1) q.stop = ASTAR_STOP_OPTIMAL;
  else if (spoil_it == 2) q.record_trace = 1;
  else if (spoil_it == 3) q.max_expansions = 1000;
  else if (spoil_it == 4) q.track_best = 1;
  bad_id = spoil_it == 5;
  pre = 1 + u8(in) % 24;
  slice = 1 + u8(in) % 16;
  W->cb.calls = 0;
  W->cb.abort_at = -1;
  if (graph) CHECK(astar_graph_track_changes(W->g, 64) == ASTAR_OK);
  else {
    CHECK(astar_grid_track_changes(W->gr, 64) == ASTAR_OK);
    if (W->log_cap < 64) W->log_cap = 64;
  }
  rc = qr_begin(W, s, &q, src, ns, reverse);
  if (rc != ASTAR_OK) {
    CHECK(rc == ASTAR_EINVAL || data_error(rc));
    return;
  }
  st = astar_search_step(s, pre);
  if (data_error(st)) return;
  since = astar_topology_version(W->t);
  edits = u8(in) % 6;
  for (e = 0; e < edits; e++) qr_edit(W, in);
  rc = graph ? astar_graph_changes(W->g, since, changed, 64, &nc)
             : astar_grid_changes(W->gr, since, changed, 64, &nc);
  CHECK(rc == ASTAR_OK && nc == astar_topology_version(W->t) - since);
  if (bad_id) changed[nc++] = graph ? (u8(in) & 1 ? W->n : -1 - W->ne) : W->n;
  rc = astar_search_repair(s, changed, nc, &q, ns ? src : NULL, (size_t)ns, &nreset);
  if (st != ASTAR_SEARCHING) {
    CHECK(rc == ASTAR_ESTATE);
    return;
  }
  if (bad_id || (!graph && qr_refused(W, s, &q, ns > 0))) CHECK(rc == ASTAR_EINVAL);
  CHECK(rc == ASTAR_OK || rc == ASTAR_EINVAL);
  if (rc == ASTAR_EINVAL) { /* begin again */
    rc = qr_begin(W, s, &q, src, ns, reverse);
    if (rc != ASTAR_OK) {
      CHECK(data_error(rc));
      return;
    }
    st = run_slices(s, slice);
    if (data_error(st) || ns > 0) return;
    if (graph) oracle_graph(W, &q, s, st);
    else oracle_path(W, &q, s, st);
    return;
  }
  st = run_slices(s, slice);
  if (data_error(st)) return;
  CHECK(qr_begin(W, f, &q, src, ns, reverse) == ASTAR_OK);
  fst = run_all(f);
  if (data_error(fst)) return;
  CHECK(st == fst);
  if (ns > 0) {
    int32_t v;
    for (v = 0; v < W->n; v++) CHECK(astar_search_g(s, v) == astar_search_g(f, v));
    if (!graph) oracle_field(W, &q, src, ns, reverse, s);
    return;
  }
  if (graph) oracle_graph(W, &q, s, st);
  else oracle_path(W, &q, s, st);
  if (st == ASTAR_FOUND) {
    double c = astar_search_g(s, q.goal), fc = astar_search_g(f, q.goal);
    field o;
    if (graph) graph_oracle(W, &q, q.start, &o);
    else cell_oracle(W, &q, &q.start, 1, 0, &o);
    if (!o.bad && fc == o.d[q.goal] && (graph || qr_admissible(W, &q))) CHECK(c == fc);
  }
}

/* ---- the lattice format: the driver -------------------------------------- */

enum {
  OP_EDIT,
  OP_PATH,
  OP_UNITS,
  OP_FIELD,
  OP_CLEAR,
  OP_JPS,
  OP_SEGMENT,
  OP_SMOOTH,
  OP_THETA,
  OP_REPAIR,
  OP_FAULT,
  OP_FORBID,
  OP_SIGHT,
  OP_TABLES,
  OP_JUMPS,
  OP_BULK,
  OP_QREPAIR,
  N_OPS
};

/* The abilities each op needs (astar_topology_abilities). */
static const unsigned op_needs[N_OPS] = {
    [OP_EDIT] = 0,
    [OP_PATH] = 0,
    [OP_UNITS] = ASTAR_CAN_CELLS | ASTAR_CAN_UNITS,
    [OP_FIELD] = 0,
    [OP_CLEAR] = ASTAR_CAN_CELLS | ASTAR_CAN_UNITS,
    [OP_JPS] = ASTAR_CAN_JPS,
    [OP_SEGMENT] = ASTAR_CAN_CELLS | ASTAR_CAN_SEGMENTS,
    [OP_SMOOTH] = ASTAR_CAN_CELLS | ASTAR_CAN_SEGMENTS,
    [OP_THETA] = ASTAR_CAN_CELLS | ASTAR_CAN_SEGMENTS,
    [OP_REPAIR] = ASTAR_CAN_CELLS | ASTAR_CAN_REPAIR,
    [OP_FAULT] = ASTAR_CAN_CELLS,
    [OP_FORBID] = ASTAR_CAN_CELLS,
    [OP_SIGHT] = ASTAR_CAN_CELLS,
    [OP_TABLES] = 0,
    [OP_JUMPS] = ASTAR_CAN_JPS,
    [OP_BULK] = ASTAR_CAN_CELLS,
    [OP_QREPAIR] = 0,
};

/* A topology without the ability an op needs: where astar.h says asking
** for it is refused, it must be. */
static void refused(world *W, int op) {
  astar_query q;
  int32_t src = 0;
  astar_query_init(&q, 0, 0);
  if (op == OP_UNITS || op == OP_CLEAR) {
    q.size = 2;
    CHECK(!(W->abil & ASTAR_CAN_UNITS) && astar_topology_max_size(W->t) == 1);
    CHECK(astar_search_begin(W->s, W->t, &q) == ASTAR_EINVAL);
    CHECK(astar_search_begin_distances(W->s, W->t, &src, 1, 0, &q) == ASTAR_EINVAL);
    CHECK(astar_topology_prepare(W->t, &q) == ASTAR_EINVAL);
  } else if (op == OP_JPS || op == OP_JUMPS) {
    q.algorithm = op == OP_JPS ? ASTAR_ALGO_JPS : ASTAR_ALGO_JPS_PLUS;
    CHECK(astar_jps_refusal(W->t, &q) != NULL && astar_jps_plus_refusal(W->t, &q) != NULL);
    CHECK(strcmp(astar_jps_plus_refusal(W->t, &q), astar_jps_refusal(W->t, &q)) == 0);
    CHECK(astar_search_begin(W->s, W->t, &q) == ASTAR_EINVAL);
    if (W->gr) CHECK(astar_grid_precompute_jumps(W->gr, 1) == ASTAR_EINVAL);
  } else if ((op == OP_SEGMENT || op == OP_SMOOTH || op == OP_THETA) && W->shape != W_GRAPH) {
    /* a grid without segments (hex) refuses every segment function */
    astar_theta *th = astar_theta_new(NULL, NULL);
    int32_t cells[2] = {0, 0}, keep[2];
    double prefix[2], c = 0;
    CHECK(astar_grid_walk(W->gr, 0, 0, 0, 0, walk_visit, NULL) == ASTAR_EINVAL);
    CHECK(astar_grid_segment_cost(W->gr, NULL, 0, 0, 0, 0, &c, NULL) == ASTAR_EINVAL);
    CHECK(astar_grid_smooth(W->gr, NULL, cells, 2, keep, prefix, NULL, NULL) == ASTAR_EINVAL);
    CHECK(th != NULL && astar_theta_begin(th, W->gr, &q) == ASTAR_EINVAL);
    astar_theta_free(th);
  }
}

static void lattice_op(world *W, int op, input *in) {
  int graph = W->shape == W_GRAPH;
  if ((W->abil & op_needs[op]) != op_needs[op]) {
    refused(W, op);
    return;
  }
  switch (op) {
    case OP_EDIT: if (graph) graph_edit(W, in); else op_edit(W, in); break;
    case OP_PATH: if (graph) graph_query(W, in); else op_path(W, in, 0); break;
    case OP_UNITS: op_path(W, in, 1); break;
    case OP_FIELD: if (graph) (void)graph_distances(W, in); else op_field(W, in); break;
    case OP_CLEAR: op_clear(W, in); break;
    case OP_JPS: op_jps(W, in); break;
    case OP_SEGMENT: op_segment(W, in); break;
    case OP_SMOOTH: op_smooth(W, in); break;
    case OP_THETA: op_theta(W, in); break;
    case OP_REPAIR: op_repair(W, in); break;
    case OP_FAULT: op_fault(W, in); break;
    case OP_FORBID: op_forbid(W, in); break;
    case OP_SIGHT: op_sight(W, in); break;
    case OP_JUMPS: op_jumps(W, in); break;
    case OP_BULK: op_bulk(W, in); break;
    case OP_QREPAIR: op_qrepair(W, in); break;
    default: fuzz_tables(W->t, in, W->s, W->s2, &W->cb); break;
  }
}

/* The lattice format: the topology, its build chunk, then the ops. */
static void lattice(input *in, uint8_t kind) {
  world W;
  input b;
  size_t len;
  int ops;
  kind = (uint8_t)((kind & 0x7f) % 9);
  len = (size_t)u8(in) << 8;
  len |= u8(in);
  b = chunk(in, len);
  if (kind == 0) graph_build(&W, &b);
  else cells_build(&W, &b, kind <= 4 ? W_SQUARE : W_HEX, (kind - 1) % 4);
  for (ops = 0; ops < 16 && in->n > 0; ops++) {
    int op = u8(in) % N_OPS;
    input c = chunk(in, u8(in));
    lattice_op(&W, op, &c);
  }
  world_free(&W);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); /* libFuzzer's entry */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in;
  uint8_t kind;
  in.p = data;
  in.n = size;
  kind = u8(&in);
  if (kind & 0x80) lattice(&in, kind);
  else if (kind & 1) legacy_cells(&in, W_SQUARE); /* the old format: odd grid, even graph */
  else if (kind & 2) legacy_cells(&in, W_HEX);
  else legacy_graph(&in);
  return 0;
}
