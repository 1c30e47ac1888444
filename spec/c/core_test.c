/*
** core_test.c -- checks of the C core without Lua: the CS4386 lecture's
** examples
** through the public API, grid basics, and the invariants a C engine relies
** on (status codes, unchanged objects on bad input), the topology
** interface, the fast path's agreement with the general one, precomputed
** tables and the audit.  Run by `make test`.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"
#include "astar_int.h" /* the search generation, for the wrap test */
#include "lattice.h"   /* the move masks, for astar_grid_set_blocked_all */

static int failures = 0, checks = 0;

/* --light (make memcheck: valgrind costs some 25 times the CPU): the two
** heaviest tests, 70% of the run, do about a quarter of their work --
** test_set_blocked_all writes its 300 x 300 maps under one rule of the four
** (no_corner_cutting, the default, on squares; even-r on hexes; every
** density; the other seven sizes, the derived layers and the
** out-of-memory part unchanged) and test_jump_repair_walks takes 150
** steps of its walks of 600 on each of its two maps.  Every other test,
** and every kind of check of the two, runs as in the full run, which make
** test (natively) and make check (ASan + UBSan) run. */
static int light = 0;

#define CHECK(cond)                                                      \
  do {                                                                   \
    checks++;                                                            \
    if (!(cond)) {                                                       \
      failures++;                                                        \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                    \
  } while (0)

/* the CS4386 lecture's graph: A..F = 0..5 */
static astar_graph *seed_graph(void) {
  static const int e[][3] = {{0, 1, 3}, {0, 2, 5}, {0, 3, 9}, {1, 2, 1}, {2, 3, 3},
                             {2, 4, 10}, {2, 5, 11}, {3, 4, 6}, {4, 5, 1}};
  astar_graph *g = astar_graph_new(NULL, NULL);
  int32_t id;
  size_t i;
  for (i = 0; i < 6; i++) astar_graph_add_node(g, (double)i, 0, 0, &id);
  for (i = 0; i < sizeof e / sizeof e[0]; i++)
    astar_graph_add_edge(g, e[i][0], e[i][1], e[i][2], 0, &id);
  return g;
}

static const double *table;
static int table_h(void *ctx, int32_t node, int32_t goal, double *h) {
  (void)ctx;
  (void)goal;
  *h = table[node];
  return 0;
}

static double run(astar_graph *g, astar_search *s, const double *h, int stop,
                  int *expanded, char *order) {
  astar_query q;
  int32_t nodes[16];
  double cost = -1;
  size_t n, i;
  const astar_trace_entry *t;
  astar_query_init(&q, 0, 5);
  table = h;
  q.heuristic = ASTAR_H_CALLBACK;
  q.heuristic_fn = table_h;
  q.stop = stop;
  q.tie_break = ASTAR_TIE_FIFO;
  q.record_trace = 1;
  CHECK(astar_search_begin(s, astar_graph_topology(g), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  CHECK(astar_search_path(s, 5, nodes, NULL, &cost) > 0);
  *expanded = (int)astar_search_stats(s)->expanded;
  t = astar_search_trace(s, &n);
  for (i = 0; i < n; i++) order[i] = (char)('A' + t[i].node);
  order[n] = 0;
  return cost;
}

static void test_seed(void) {
  static const double h1[6] = {0, 0, 0, 0, 0, 0};
  static const double h2[6] = {10, 8, 6, 4, 1, 0};
  static const double h3[6] = {17, 16, 11, 8, 1, 0};
  astar_graph *g = seed_graph();
  astar_search *s = astar_search_new(NULL, NULL);
  char order[64];
  int ex;
  CHECK(run(g, s, h1, ASTAR_STOP_EXPAND, &ex, order) == 14);
  CHECK(strcmp(order, "ABCDEF") == 0);
  CHECK(run(g, s, h2, ASTAR_STOP_EXPAND, &ex, order) == 14);
  CHECK(strcmp(order, "ABCDEF") == 0);
  CHECK(run(g, s, h3, ASTAR_STOP_FIRST_HIT, &ex, order) == 16);
  CHECK(ex == 2 && strcmp(order, "AC") == 0);
  CHECK(run(g, s, h3, ASTAR_STOP_EXPAND, &ex, order) == 15);
  CHECK(strcmp(order, "ACDEF") == 0);
  CHECK(run(g, s, h3, ASTAR_STOP_OPTIMAL, &ex, order) == 14);
  CHECK(strcmp(order, "ACDEFBCDE") == 0);
  CHECK(astar_search_stats(s)->reopened == 4); /* C, D, E, F */
  CHECK(astar_search_stats(s)->generated == 10); /* A-F, then C-F again */
  astar_search_free(s);
  astar_graph_free(g);
}

static void test_bad_input(void) {
  astar_graph *g = seed_graph();
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t id = 77;
  CHECK(astar_graph_add_edge(g, 0, 6, 1, 0, &id) == ASTAR_EINVAL && id == 77);
  CHECK(astar_graph_add_edge(g, 0, 1, -1, 0, &id) == ASTAR_EINVAL);
  CHECK(astar_graph_add_edge(g, 0, 1, NAN, 0, &id) == ASTAR_EINVAL);
  CHECK(astar_graph_add_edge(g, 0, 1, INFINITY, 0, &id) == ASTAR_EINVAL);
  CHECK(astar_graph_add_node(g, NAN, 0, 0, &id) == ASTAR_EINVAL);
  CHECK(astar_graph_edge_count(g) == 9 && astar_graph_node_count(g) == 6);
  astar_query_init(&q, 0, 6);
  CHECK(astar_search_begin(s, astar_graph_topology(g), &q) == ASTAR_EINVAL);
  CHECK(astar_search_step(s, 0) == ASTAR_ESTATE);
  astar_query_init(&q, 0, 5);
  q.weight = -1;
  CHECK(astar_search_begin(s, astar_graph_topology(g), &q) == ASTAR_EINVAL);
  astar_topology_lock(astar_graph_topology(g), 1);
  CHECK(astar_graph_add_node(g, 0, 0, 0, &id) == ASTAR_EBUSY);
  astar_topology_lock(astar_graph_topology(g), -1);
  /* a sliced search notices mutation */
  astar_query_init(&q, 0, 5);
  CHECK(astar_search_begin(s, astar_graph_topology(g), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 1) == ASTAR_SEARCHING);
  CHECK(astar_graph_set_cost(g, 0, 2) == ASTAR_OK);
  CHECK(astar_search_step(s, 1) == ASTAR_ECHANGED);
  astar_search_free(s);
  astar_graph_free(g);
}

static void test_grid(void) {
  /* 5x3, wall in column 2 rows 0..1 */
  astar_grid *gr = astar_grid_new(5, 3, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t nodes[32], n;
  double cost;
  CHECK(astar_grid_set_blocked(gr, 2, 0, 1) == ASTAR_OK);
  CHECK(astar_grid_set_blocked(gr, 2, 1, 1) == ASTAR_OK);
  CHECK(astar_grid_set_blocked(gr, 5, 0, 1) == ASTAR_EINVAL);
  astar_query_init(&q, 0, 4);
  q.heuristic = ASTAR_H_OCTILE;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  n = astar_search_path(s, 4, nodes, NULL, &cost);
  /* the wall forces the path through (2,2), and the corner rule forbids the
  ** diagonals that touch (2,1) on either side: 4 straight steps + 2 diagonals */
  CHECK(n == 7);
  CHECK(cost == 4 + 2 * ASTAR_GRID_DIAG);
  CHECK(fabs(cost - (4 + 2 * 1.41421356237309505)) < 1e-10);
  CHECK(nodes[0] == 0 && nodes[n - 1] == 4);
  CHECK(astar_grid_line_of_sight(gr, 0, 0, 4, 0) == 0);
  CHECK(astar_grid_line_of_sight(gr, 0, 2, 4, 2) == 1);
  astar_search_free(s);
  astar_grid_free(gr);
}

/* The precomputed mode through the C API: EINVAL without a table (the
** reason from astar_jps_plus_refusal), the table built, the same cost as
** A* and every cell, auto taking it, set_blocked repairing it (equal to a
** fresh build), the refusals of other grids, EBUSY while locked. */
static void test_jps_plus(void) {
  astar_grid *gr = astar_grid_new(50, 30, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_grid *fresh = astar_grid_new(50, 30, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_grid *four = astar_grid_new(5, 5, ASTAR_DIAG_NEVER, NULL, NULL);
  astar_grid *hex = astar_hex_new(5, 5, ASTAR_HEX_ODD_R, NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t nodes[256], n, i, y;
  double cost, acost;
  size_t na, nb, bytes;
  const int8_t *ta, *tb;
  for (y = 0; y < 29; y++) {
    CHECK(astar_grid_set_blocked(gr, 25, y, 1) == ASTAR_OK);
    CHECK(astar_grid_set_blocked(fresh, 25, y, 1) == ASTAR_OK);
  }
  astar_query_init(&q, 10 * 50, 10 * 50 + 49);
  q.algorithm = ASTAR_ALGO_JPS_PLUS;
  CHECK(!astar_grid_has_jumps(gr) && astar_grid_jump_table(gr, &na) == NULL && na == 0);
  CHECK(strcmp(astar_jps_plus_refusal(astar_grid_topology(gr), &q), "no jump table") == 0);
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_EINVAL);
  bytes = astar_topology_bytes(astar_grid_topology(gr));
  CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK && astar_grid_has_jumps(gr) == 2);
  CHECK(astar_topology_bytes(astar_grid_topology(gr)) == bytes + 52 * 32 * 8);
  CHECK(astar_jps_plus_refusal(astar_grid_topology(gr), &q) == NULL);
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND && astar_search_jps(s));
  n = astar_search_path(s, q.goal, nodes, NULL, &cost);
  for (i = 1; i < n; i++) { /* a chain of neighbour cells */
    int32_t ddx = nodes[i] % 50 - nodes[i - 1] % 50, ddy = nodes[i] / 50 - nodes[i - 1] / 50;
    CHECK(ddx >= -1 && ddx <= 1 && ddy >= -1 && ddy <= 1 && (ddx || ddy));
  }
  q.algorithm = ASTAR_ALGO_ASTAR;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  CHECK(astar_search_path(s, q.goal, nodes, NULL, &acost) > 0 && acost == cost);
  q.algorithm = ASTAR_ALGO_AUTO; /* auto: the table */
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND && astar_search_jps(s));
  /* repaired by edits: the table equals a fresh build's */
  CHECK(astar_grid_set_blocked(gr, 25, 29, 1) == ASTAR_OK);
  CHECK(astar_grid_set_blocked(gr, 25, 3, 0) == ASTAR_OK);
  CHECK(astar_grid_set_blocked(fresh, 25, 29, 1) == ASTAR_OK);
  CHECK(astar_grid_set_blocked(fresh, 25, 3, 0) == ASTAR_OK);
  CHECK(astar_grid_precompute_jumps(fresh, 1) == ASTAR_OK);
  ta = astar_grid_jump_table(gr, &na);
  tb = astar_grid_jump_table(fresh, &nb);
  CHECK(na == 52 * 32 * 8 && nb == na && memcmp(ta, tb, na * sizeof *ta) == 0);
  /* a batch repairs at its end: without a change log by a build (auto's
  ** choice kept), with one cell by cell; either way as a fresh build */
  for (i = 0; i < 2; i++) {
    if (i == 1) CHECK(astar_grid_track_changes(gr, 64) == ASTAR_OK);
    astar_grid_edits_begin(gr);
    for (y = 5; y < 25; y++) {
      CHECK(astar_grid_set_blocked(gr, 10 + i, y, 1) == ASTAR_OK);
      CHECK(astar_grid_set_blocked(fresh, 10 + i, y, 1) == ASTAR_OK);
    }
    CHECK(astar_grid_set_blocked(gr, 25, 10, 0) == ASTAR_OK);
    CHECK(astar_grid_set_blocked(fresh, 25, 10, 0) == ASTAR_OK);
    astar_grid_edits_end(gr);
    CHECK(astar_grid_has_jumps(gr) == 2);
    CHECK(astar_grid_precompute_jumps(fresh, 1) == ASTAR_OK);
    ta = astar_grid_jump_table(gr, &na);
    tb = astar_grid_jump_table(fresh, &nb);
    CHECK(nb == na && memcmp(ta, tb, na * sizeof *ta) == 0);
  }
  /* other grids; a locked grid; dropping */
  CHECK(astar_grid_precompute_jumps(four, 1) == ASTAR_EINVAL && !astar_grid_has_jumps(four));
  CHECK(astar_grid_precompute_jumps(hex, 1) == ASTAR_EINVAL && !astar_grid_has_jumps(hex));
  CHECK(strcmp(astar_jps_plus_refusal(astar_grid_topology(four), &q), "diagonal rule never") == 0);
  /* JPS's own refusal comes first, on a grid holding a table too */
  CHECK(strcmp(astar_jps_plus_refusal(astar_grid_topology(hex), &q), "a hex grid") == 0);
  q.weight = 2;
  q.algorithm = ASTAR_ALGO_JPS_PLUS;
  CHECK(strcmp(astar_jps_plus_refusal(astar_grid_topology(gr), &q), "weight other than 1") == 0);
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_EINVAL);
  q.algorithm = ASTAR_ALGO_AUTO; /* auto: A* with this weight, not the table */
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK && !astar_search_jps(s));
  q.weight = 1;
  astar_topology_lock(astar_grid_topology(gr), 1);
  CHECK(astar_grid_precompute_jumps(gr, 0) == ASTAR_EBUSY && astar_grid_has_jumps(gr));
  astar_topology_lock(astar_grid_topology(gr), -1);
  bytes = astar_topology_bytes(astar_grid_topology(gr));
  CHECK(astar_grid_precompute_jumps(gr, 0) == ASTAR_OK && !astar_grid_has_jumps(gr));
  CHECK(astar_topology_bytes(astar_grid_topology(gr)) == bytes - 52 * 32 * 8);
  astar_search_free(s);
  astar_grid_free(gr);
  astar_grid_free(fresh);
  astar_grid_free(four);
  astar_grid_free(hex);
}

/* Jump point search through the C API: the default on a uniform grid, the
** same cost and every cell as A*, fewer expansions; "jps" where it cannot
** serve is EINVAL with the reason from astar_jps_refusal. */
/* Blocks (x, y) on gr (its table repaired by the edit) and on fresh (its
** table built again): the two tables must be equal; gr's, *n entries. */
static const int8_t *jump_edit_fresh(astar_grid *gr, astar_grid *fresh, int32_t x, int32_t y,
                                     size_t *n) {
  const int8_t *ta, *tb;
  size_t nb;
  CHECK(astar_grid_set_blocked(gr, x, y, 1) == ASTAR_OK);
  CHECK(astar_grid_set_blocked(fresh, x, y, 1) == ASTAR_OK);
  CHECK(astar_grid_precompute_jumps(fresh, 1) == ASTAR_OK);
  ta = astar_grid_jump_table(gr, n);
  tb = astar_grid_jump_table(fresh, &nb);
  CHECK(nb == *n && memcmp(ta, tb, nb) == 0);
  return ta;
}

/* A* and jps+ from start to goal on gr: both paths of `cells` cells (at
** most 400), the same cost; returns it. */
static double jump_path_as_astar(astar_grid *gr, int32_t start, int32_t goal, int32_t cells) {
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t nodes[400];
  double cost[2];
  int k;
  astar_query_init(&q, start, goal);
  for (k = 0; k < 2; k++) {
    q.algorithm = k ? ASTAR_ALGO_JPS_PLUS : ASTAR_ALGO_ASTAR;
    CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
    CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
    CHECK(astar_search_path(s, q.goal, nodes, NULL, &cost[k]) == cells);
  }
  CHECK(cost[0] == cost[1]);
  astar_search_free(s);
  return cost[1];
}

/* Long straight runs (300 columns): every entry one byte, an escape
** (+-127) past 126 steps, repaired as a fresh build, a jps+ path across
** escapes costing A*'s. */
static void test_jump_escapes(void) {
  astar_grid *gr = astar_grid_new(300, 4, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_grid *fresh = astar_grid_new(300, 4, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  const int8_t *ta;
  size_t na, i;
  CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK);
  ta = astar_grid_jump_table(gr, &na);
  CHECK(na == 302 * 6 * 8 && ta[(302 * 2 + 1) * 8] == -127); /* east of (0, 1) */
  CHECK(ta[(302 * 2 + 174) * 8] == -126); /* 126 open */
  ta = jump_edit_fresh(gr, fresh, 250, 1, &na);
  CHECK(ta[(302 * 3 + 1) * 8] == 127); /* a jump point (251, 2) 251 on */
  for (i = 0; i < na; i++) CHECK(ta[i] != -128);
  CHECK(jump_path_as_astar(gr, 2 * 300, 2 * 300 + 299, 300) == 299);
  astar_grid_free(gr);
  astar_grid_free(fresh);
}

/* Diagonal entries on an open 70 x 70 grid (padded 72 wide): exact within
** 8 steps or before the next padded column that is a multiple of 16 (a
** waypoint), else 32 + the steps to the waypoint; an edit repaired as a
** fresh build; a corner-to-corner jps+ path over waypoints costing A*'s. */
#define WP_AT(t, x, y, d) ((t)[((size_t)(y)*72u + (size_t)(x)) * 8u + (d)])
static void test_jump_waypoints(void) {
  astar_grid *gr = astar_grid_new(70, 70, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_grid *fresh = astar_grid_new(70, 70, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  const int8_t *ta;
  size_t na;
  CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK);
  ta = astar_grid_jump_table(gr, &na);
  CHECK(WP_AT(ta, 1, 1, 4) == 32 + 15);  /* SE, 69 open steps: column 16 */
  CHECK(WP_AT(ta, 62, 62, 4) == -8);     /* 8 open steps, past column 64 */
  CHECK(WP_AT(ta, 61, 61, 4) == 32 + 3); /* 9: the waypoint, column 64 */
  CHECK(WP_AT(ta, 15, 15, 7) == -14);    /* NW, 14 steps before column 0 */
  CHECK(WP_AT(ta, 17, 17, 7) == 32 + 1); /* 16 steps past column 16 */
  CHECK(WP_AT(ta, 64, 64, 7) == 32 + 16);
  /* a wall cell at (40, 20) (padded (41, 21)): row 20 (padded 20) beside it
  ** finds jump points, so the SE run from padded (14, 13) stops 7 on, at
  ** padded (21, 20), past the waypoint column 16 */
  CHECK(WP_AT(ta, 14, 13, 4) == 32 + 2);
  ta = jump_edit_fresh(gr, fresh, 40, 20, &na);
  CHECK(WP_AT(ta, 14, 13, 4) == 7);
  jump_path_as_astar(gr, 0, 69 * 70 + 69, 70);
  astar_grid_free(gr);
  astar_grid_free(fresh);
}
#undef WP_AT

/* One query of gr under algorithm a: its status, expansions, trace (when
** tr) and path cost. */
static int goal_query(astar_search *s, astar_grid *gr, int32_t start, int32_t goal, int a,
                      int tr, uint64_t *exp, double *cost) {
  static int32_t nodes[4096]; /* more than either grid's cells */
  astar_query q;
  int rc;
  astar_query_init(&q, start, goal);
  q.algorithm = a;
  q.record_trace = tr;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  rc = astar_search_step(s, 0);
  *exp = astar_search_stats(s)->expanded;
  *cost = -1;
  if (rc == ASTAR_FOUND) astar_search_path(s, goal, nodes, NULL, cost);
  return rc;
}

/* Whether the run from (x, y) to (gx, gy) -- diagonal first, then
** straight -- is open on a grid without corner cutting (a diagonal step
** needs both cells beside it open): the goal-visible test, cell by cell. */
static int sees_goal(const astar_grid *gr, int32_t x, int32_t y, int32_t gx, int32_t gy) {
  int32_t dx = gx > x ? 1 : gx < x ? -1 : 0, dy = gy > y ? 1 : gy < y ? -1 : 0;
  for (; x != gx && y != gy; x += dx, y += dy)
    if (astar_grid_blocked(gr, x + dx, y) || astar_grid_blocked(gr, x, y + dy) ||
        astar_grid_blocked(gr, x + dx, y + dy))
      return 0;
  while (x != gx || y != gy) {
    x += x != gx ? dx : 0;
    y += y != gy ? dy : 0;
    if (astar_grid_blocked(gr, x, y)) return 0;
  }
  return 1;
}

/* FNV-1a over a search's trace (node, parent, g's bits): the pins of
** test_jump_goal and test_jps_online_pin. */
static uint32_t trace_hash(uint32_t hash, const astar_trace_entry *t, size_t nt) {
  size_t m;
  for (m = 0; m < nt; m++) {
    uint64_t gb;
    memcpy(&gb, &t[m].g, sizeof gb);
    hash = (hash ^ (uint32_t)t[m].node) * 16777619u;
    hash = (hash ^ (uint32_t)t[m].parent) * 16777619u;
    hash = (hash ^ (uint32_t)(gb ^ gb >> 32)) * 16777619u;
  }
  return hash;
}

/* Blocks each cell of the w x h grid with probability pct in 100, in row
** order, from the LCG state *seed (which goes on from there). */
static void scatter_walls(astar_grid *gr, int32_t w, int32_t h, uint32_t *seed, uint32_t pct) {
  int32_t x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      *seed = *seed * 1103515245u + 12345u;
      if ((*seed >> 16) % 100 < pct) CHECK(astar_grid_set_blocked(gr, x, y, 1) == ASTAR_OK);
    }
}

/* The goal met on a run (jpsplus.c jump_goal): jps+ paths cost A*'s, and
** the nodes it expands, their order, parents and g are pinned (a hash of
** the traces, and the expansions, as the code before jump_goal gave them),
** for goals on the start's row or column (ahead and behind), a diagonal
** then a straight run away (where a run crosses the goal's row or column),
** past jump points, past an escape (the 300-wide grid), and anywhere; the
** fast loop (untraced) expands as many as the traced one.  A start that
** sees its goal (sees_goal) offers the goal alone, as the online search
** does: 2 expansions, 2 nodes generated. */
static void test_jump_goal(void) {
  static const int32_t dims[2][2] = {{41, 33}, {300, 9}};
  astar_search *s = astar_search_new(NULL, NULL);
  uint32_t seed = 19u, hash = 2166136261u;
  uint64_t total = 0;
  int gi, i, hits = 0, seen = 0;
  for (gi = 0; gi < 2; gi++) {
    int32_t w = dims[gi][0], h = dims[gi][1];
    astar_grid *gr = astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
    scatter_walls(gr, w, h, &seed, 12);
    CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK);
    for (i = 0; i < 1500; i++) {
      int32_t sx, sy, gx, gy, k, j, n = w > h ? w : h, ddx, ddy, shape;
      uint64_t e[3], gen;
      double c[3];
      int rc[3];
      seed = seed * 1103515245u + 12345u;
      sx = (int32_t)((seed >> 8) % (uint32_t)w);
      seed = seed * 1103515245u + 12345u;
      sy = (int32_t)((seed >> 8) % (uint32_t)h);
      seed = seed * 1103515245u + 12345u;
      shape = (int)((seed >> 8) % 4u); /* row, column, diagonal + straight, anywhere */
      k = (int32_t)((seed >> 12) % (uint32_t)n);
      j = (int32_t)((seed >> 20) % (uint32_t)n);
      ddx = seed >> 28 & 1 ? 1 : -1;
      ddy = seed >> 29 & 1 ? 1 : -1;
      gx = shape == 1 ? sx : sx + ddx * k + (shape == 2 && seed >> 30 & 1 ? ddx * j : 0);
      gy = shape == 0 ? sy : sy + ddy * k + (shape == 2 && !(seed >> 30 & 1) ? ddy * j : 0);
      if (shape == 3) {
        gx = (int32_t)((seed >> 4) % (uint32_t)w);
        gy = (int32_t)((seed >> 14) % (uint32_t)h);
      }
      if (gx < 0 || gy < 0 || gx >= w || gy >= h || astar_grid_blocked(gr, sx, sy) ||
          astar_grid_blocked(gr, gx, gy))
        continue;
      rc[0] = goal_query(s, gr, sy * w + sx, gy * w + gx, ASTAR_ALGO_JPS_PLUS, 0, &e[0], &c[0]);
      gen = astar_search_stats(s)->generated;
      rc[2] = goal_query(s, gr, sy * w + sx, gy * w + gx, ASTAR_ALGO_ASTAR, 0, &e[2], &c[2]);
      rc[1] = goal_query(s, gr, sy * w + sx, gy * w + gx, ASTAR_ALGO_JPS_PLUS, 1, &e[1], &c[1]);
      CHECK(rc[0] == rc[2] && rc[1] == rc[2] && e[1] == e[0] && c[0] == c[2] && c[1] == c[2]);
      if (rc[2] == ASTAR_FOUND) hits++;
      {
        size_t nt;
        const astar_trace_entry *a = astar_search_trace(s, &nt);
        CHECK(nt == e[1]);
        hash = trace_hash(hash, a, nt);
      }
      total += e[0];
      if ((sx != gx || sy != gy) && sees_goal(gr, sx, sy, gx, gy)) {
        /* the start sees the goal: it is offered alone (jpsplus.c
        ** start_sees_goal), as the online search does */
        uint64_t eo;
        double co;
        int ro = goal_query(s, gr, sy * w + sx, gy * w + gx, ASTAR_ALGO_JPS, 0, &eo, &co);
        seen++;
        CHECK(ro == ASTAR_FOUND && rc[0] == ASTAR_FOUND && e[0] == 2 && eo == 2 && co == c[0]);
        CHECK(gen == 2); /* the start and the goal */
      }
    }
    astar_grid_free(gr);
  }
  /* main at 5d9c054, before jump_goal, gave 1,086 goals, 60,273 expansions
  ** and 0x6d3beb05; the start's goal-visible offer changed the 148 queries
  ** whose start sees the goal only (a hash of the others' traces is the
  ** same with and without it): 108 expansions fewer; the bypass slot
  ** sinking from the heap's top (engine.h) reorders exact ties (equal f and
  ** h) only: 60,165 expansions and 0x142abf8d before it */
  CHECK(seen == 148);
  CHECK(hits == 1086 && total == 60166 && hash == 0x0423ade5u);
  astar_search_free(s);
}

/* jpsplus.c's offers carry their entries' homes in the slot table (the
** prefetch's and the probe's start), so a flush first makes the table room
** for the whole buffer, growing it and the homes with it.  A query on a
** fresh search, whose table grows from 256 entries while it runs, must
** expand what it expands on a search whose table grew on earlier queries: same
** status, expansions, cost and trace.  Homes left stale by a growth make
** the probe miss nodes the query holds (a node taken twice). */
static void test_jump_slot_growth(void) {
  const int32_t w = 150, h = 150;
  astar_grid *gr = astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_search *old = astar_search_new(NULL, NULL);
  uint32_t seed = 77u;
  int32_t i, grew = 0, found = 0;
  scatter_walls(gr, w, h, &seed, 20);
  CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK);
  for (i = 0; i < 120; i++) {
    astar_search *s = astar_search_new(NULL, NULL);
    int32_t a, b;
    uint64_t e[2], gen;
    double c[2];
    int rc[2];
    size_t nt[2];
    uint32_t th[2];
    const astar_trace_entry *tr;
    seed = seed * 1103515245u + 12345u;
    a = (int32_t)((seed >> 8) % (uint32_t)(w * h));
    seed = seed * 1103515245u + 12345u;
    b = (int32_t)((seed >> 8) % (uint32_t)(w * h));
    if (astar_grid_blocked(gr, a % w, a / w) || astar_grid_blocked(gr, b % w, b / w)) {
      astar_search_free(s);
      continue;
    }
    rc[0] = goal_query(s, gr, a, b, ASTAR_ALGO_JPS_PLUS, 1, &e[0], &c[0]);
    gen = astar_search_stats(s)->generated;
    tr = astar_search_trace(s, &nt[0]);
    th[0] = trace_hash(2166136261u, tr, nt[0]);
    rc[1] = goal_query(old, gr, a, b, ASTAR_ALGO_JPS_PLUS, 1, &e[1], &c[1]);
    tr = astar_search_trace(old, &nt[1]);
    th[1] = trace_hash(2166136261u, tr, nt[1]);
    CHECK(rc[0] == rc[1] && e[0] == e[1] && c[0] == c[1] && nt[0] == nt[1] && th[0] == th[1]);
    if (gen > 128) grew++; /* past the first table's room: it grew */
    if (rc[0] == ASTAR_FOUND) found++;
    astar_search_free(s);
  }
  CHECK(grew >= 20 && found >= 50);
  astar_search_free(old);
  astar_grid_free(gr);
}

/* Random edit sequences repaired as fresh builds, entry for entry, after
** every edit: on an open grid (the longest runs: every edit flips whole
** straight runs and sets off ~2 diagonal walks a cell of them) and on a
** sparse one, at the costliest positions (0-based columns 14, 15, 0 mod 16,
** beside a waypoint column), on the borders and anywhere, single edits and
** batches (repaired at their end).  A repair that leaves one entry stale
** fails here. */
static uint32_t jump_seed = 1949u;
static int32_t jump_rand(int32_t n) {
  jump_seed = jump_seed * 1103515245u + 12345u;
  return (int32_t)((jump_seed >> 8) % (uint32_t)n);
}

static void jump_pick(int32_t w, int32_t h, int32_t *x, int32_t *y) {
  static const int32_t worst[3] = {14, 15, 16};
  *x = jump_rand(w), *y = jump_rand(h);
  switch (jump_rand(5)) {
    case 0: *x = (jump_rand(w / 16) * 16 + worst[jump_rand(3)]) % w; break;
    case 1: *x = jump_rand(2) ? jump_rand(2) : w - 1 - jump_rand(2); break;
    case 2: *y = jump_rand(2) ? jump_rand(2) : h - 1 - jump_rand(2); break;
    case 3: /* beside a waypoint column, near a corner */
      *x = 16 * (1 + jump_rand(w / 16 - 1)) - 2 + jump_rand(4), *y = jump_rand(3);
      break;
    default: break;
  }
}

/* jpsplus.c's plus_moves reads an open cell's move mask from its table
** line: an entry is 0 exactly where the cell's mask forbids the step.  The
** cells of gr (with a table) where that fails. */
static int jump_moves_differ(const astar_grid *gr) {
  int32_t c, n = gr->pw * gr->ph;
  int d, bad = 0;
  for (c = 0; c < n; c++)
    if (!gr->blocked[c])
      for (d = 0; d < 8; d++)
        if ((gr->jump[(size_t)c * 8 + (size_t)d] != 0) != (gr->moves[c] >> d & 1)) {
          bad++;
          break;
        }
  return bad;
}

static void test_jump_repair_walks(void) {
  const int32_t w = 130, h = 90;
  const int steps = light ? 150 : 600; /* a batch of 6 edits every 25th step */
  int map, k, i, stale = 0, edits = 0, moves = 0;
  for (map = 0; map < 2; map++) {
    astar_grid *gr = astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
    astar_grid *fresh = astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
    int32_t x, y;
    if (map == 1)
      for (k = 0; k < w * h / 50; k++) {
        x = jump_rand(w), y = jump_rand(h);
        CHECK(astar_grid_set_blocked(gr, x, y, 1) == ASTAR_OK);
        CHECK(astar_grid_set_blocked(fresh, x, y, 1) == ASTAR_OK);
      }
    CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK);
    for (k = 0; k < steps; k++) {
      const int8_t *ta, *tb;
      size_t na, nb;
      int batch = k % 25 == 24;
      if (batch) astar_grid_edits_begin(gr);
      for (i = 0; i < (batch ? 6 : 1); i++) {
        int b;
        jump_pick(w, h, &x, &y);
        b = !astar_grid_blocked(gr, x, y);
        CHECK(astar_grid_set_blocked(gr, x, y, b) == ASTAR_OK);
        CHECK(astar_grid_set_blocked(fresh, x, y, b) == ASTAR_OK);
        edits++;
      }
      if (batch) astar_grid_edits_end(gr);
      CHECK(astar_grid_precompute_jumps(fresh, 1) == ASTAR_OK);
      ta = astar_grid_jump_table(gr, &na);
      tb = astar_grid_jump_table(fresh, &nb);
      if (na != nb || memcmp(ta, tb, na) != 0) stale++;
      moves += jump_moves_differ(gr);
    }
    astar_grid_free(gr);
    astar_grid_free(fresh);
  }
  CHECK(edits == 2 * (steps - steps / 25 + steps / 25 * 6));
  CHECK(stale == 0);
  if (stale) fprintf(stderr, "test_jump_repair_walks: %d of %d tables stale\n", stale, 2 * steps);
  CHECK(moves == 0); /* every repaired table's zeros are the move masks' */
}

static void test_jps(void) {
  astar_grid *gr = astar_grid_new(70, 40, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_graph *g = astar_graph_new(NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t nodes[256], links[256], n, i, y, id;
  double cost, acost;
  uint64_t jexp;
  for (y = 0; y < 39; y++) CHECK(astar_grid_set_blocked(gr, 35, y, 1) == ASTAR_OK);
  astar_query_init(&q, 20 * 70, 20 * 70 + 69);
  CHECK(astar_jps_refusal(astar_grid_topology(gr), &q) == NULL);
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  jexp = astar_search_stats(s)->expanded;
  n = astar_search_path(s, q.goal, nodes, links, &cost);
  CHECK(n == astar_search_path_length(s, q.goal) && n >= 70);
  for (i = 1; i < n; i++) {            /* a chain of neighbour cells */
    int32_t ddx = nodes[i] % 70 - nodes[i - 1] % 70, ddy = nodes[i] / 70 - nodes[i - 1] / 70;
    CHECK(ddx >= -1 && ddx <= 1 && ddy >= -1 && ddy <= 1 && (ddx || ddy));
    CHECK(links[i - 1] >= 0 && links[i - 1] < 8);
  }
  q.algorithm = ASTAR_ALGO_ASTAR;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  CHECK(astar_search_path(s, q.goal, nodes, NULL, &acost) == n);
  CHECK(acost == cost);                /* to the bit */
  CHECK(jexp * 10 < astar_search_stats(s)->expanded);
  /* refusals */
  q.algorithm = ASTAR_ALGO_JPS;
  q.weight = 2;
  CHECK(strcmp(astar_jps_refusal(astar_grid_topology(gr), &q), "weight other than 1") == 0);
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_EINVAL);
  CHECK(astar_search_step(s, 0) == ASTAR_ESTATE);
  q.weight = 1;
  q.algorithm = ASTAR_ALGO_JPS_PLUS + 1;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_EINVAL);
  q.algorithm = ASTAR_ALGO_JPS;
  CHECK(astar_grid_set_cost(gr, 0, 0, 2) == ASTAR_OK);
  CHECK(strcmp(astar_jps_refusal(astar_grid_topology(gr), &q), "cell costs") == 0);
  CHECK(astar_graph_add_node(g, 0, 0, 0, &id) == ASTAR_OK);
  astar_query_init(&q, 0, 0);
  CHECK(strcmp(astar_jps_refusal(astar_graph_topology(g), &q), "a graph") == 0);
  q.algorithm = ASTAR_ALGO_JPS;
  CHECK(astar_search_begin(s, astar_graph_topology(g), &q) == ASTAR_EINVAL);
  astar_search_free(s);
  astar_graph_free(g);
  astar_grid_free(gr);
}

/* Hex grids through the same topology interface: a wall with a gap, the
** heuristics a hex accepts, centres and cell_at inverse to each other. */
static void test_hex(void) {
  astar_grid *hx = astar_hex_new(6, 4, ASTAR_HEX_EVEN_Q, NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t nodes[32], xy[12], n, x, y;
  double cost;
  CHECK(astar_hex_new(0, 4, ASTAR_HEX_ODD_R, NULL, NULL) == NULL);
  CHECK(astar_hex_new(4, 4, 4, NULL, NULL) == NULL);
  for (y = 0; y < 3; y++) CHECK(astar_grid_set_blocked(hx, 2, y, 1) == ASTAR_OK);
  CHECK(astar_grid_set_blocked(hx, 6, 0, 1) == ASTAR_EINVAL);
  CHECK(strcmp(astar_topology_kind(astar_grid_topology(hx)), "hex") == 0);
  CHECK(astar_topology_default_heuristic(astar_grid_topology(hx)) == ASTAR_H_HEX);
  CHECK(!astar_topology_accepts(astar_grid_topology(hx), ASTAR_H_OCTILE));
  astar_query_init(&q, 0, 5);
  q.heuristic = ASTAR_H_OCTILE;
  CHECK(astar_search_begin(s, astar_grid_topology(hx), &q) == ASTAR_EINVAL);
  astar_query_init(&q, 0, 5);
  CHECK(astar_search_begin(s, astar_grid_topology(hx), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  n = astar_search_path(s, 5, nodes, NULL, &cost);
  CHECK(n > 0 && nodes[0] == 0 && nodes[n - 1] == 5 && cost == n - 1);
  CHECK(cost > astar_hex_distance(hx, 0, 0, 5, 0));   /* round the wall */
  CHECK(astar_grid_line_of_sight(hx, 0, 0, 5, 0) == 0);
  CHECK(astar_grid_line_of_sight(hx, 0, 3, 5, 3) == 1);
  CHECK(astar_grid_neighbours(hx, 0, 0, xy) == 3);     /* a corner */
  CHECK(astar_grid_neighbours(hx, 3, 2, xy) == 6);
  for (y = 0; y < 4; y++)
    for (x = 0; x < 6; x++) {
      double cx, cy;
      int32_t bx, by;
      astar_hex_center(ASTAR_HEX_EVEN_Q, x, y, &cx, &cy);
      CHECK(astar_hex_cell_at(hx, cx + 0.3, cy - 0.2, &bx, &by) == 1 && bx == x && by == y);
    }
  CHECK(astar_hex_cell_at(hx, -5, 0, &x, &y) == 0);
  astar_search_free(s);
  astar_grid_free(hx);
}

/* The distance field of s (run to the end) on gr, cell by cell. */
static void field_of(astar_search *s, astar_grid *gr, double *dist, int32_t *next,
                     signed char *link) {
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  CHECK(astar_grid_export_distances(s, gr, dist, next, link) == ASTAR_OK);
}

/* One lattice under both shapes: abilities instead of kinds, the cell
** functions on either, a tag that forbids meaning what the forbid array
** means, hex units and hex field repair. */
static void test_lattice(void) {
  astar_graph *g = astar_graph_new(NULL, NULL);
  astar_grid *sq = astar_grid_new(2, 2, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_grid *hx = astar_hex_new(9, 9, ASTAR_HEX_ODD_R, NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  double tagf[2] = {1.0, ASTAR_FORBID}, forbid[4] = {0, 1, 0, 0}, cost;
  double d1[81], d2[81];
  int32_t nodes[16], xy[16], n1[81], n2[81], changed[8], k;
  signed char l1[81], l2[81];
  size_t nch;
  int way;
  /* abilities */
  CHECK(astar_topology_abilities(astar_graph_topology(g)) == 0);
  CHECK(astar_topology_abilities(astar_grid_topology(sq)) ==
        (ASTAR_CAN_CELLS | ASTAR_CAN_UNITS | ASTAR_CAN_JPS | ASTAR_CAN_REPAIR | ASTAR_CAN_SEGMENTS));
  CHECK(astar_topology_abilities(astar_grid_topology(hx)) ==
        (ASTAR_CAN_CELLS | ASTAR_CAN_UNITS | ASTAR_CAN_REPAIR));
  CHECK(astar_topology_grid(astar_graph_topology(g)) == NULL);
  CHECK(astar_topology_grid(astar_grid_topology(hx)) == hx);
  CHECK(astar_grid_diagonal(hx) == ASTAR_EINVAL && astar_hex_layout(sq) == ASTAR_EINVAL);
  CHECK(astar_grid_diagonal(sq) == ASTAR_DIAG_NO_CORNER_CUTTING);
  CHECK(astar_hex_layout(hx) == ASTAR_HEX_ODD_R && astar_hex_distance(sq, 0, 0, 1, 1) == -1);
  CHECK(astar_grid_neighbours(sq, 0, 0, xy) == 3 && astar_grid_neighbours(hx, 4, 4, xy) == 6);
  CHECK(astar_grid_walk(hx, 0, 0, 1, 1, NULL, NULL) == ASTAR_EINVAL); /* segments: square */
  /* found by fuzz/fuzz_core: segments between cells out of range are
  ** refused before anything is computed from them (the uniform shortcut
  ** read outside the grid; INT32_MIN overflowed a difference) */
  {
    astar_grid *one = astar_grid_new(1, 1, ASTAR_DIAG_ALWAYS, NULL, NULL);
    astar_query pq;
    double c = 7;
    astar_query_init(&pq, 0, 0);
    CHECK(astar_grid_segment_cost(one, NULL, -1, 0, 0, 0, &c, NULL) == ASTAR_EINVAL && c == 7);
    CHECK(astar_grid_segment_cost(one, &pq, -70000, 0, 0, 0, &c, NULL) == ASTAR_EINVAL);
    CHECK(astar_grid_walk(one, INT32_MIN, 0, 0, 0, NULL, NULL) == ASTAR_EINVAL);
    CHECK(astar_grid_segment_cost(one, &pq, 0, 0, 0, 0, &c, NULL) == ASTAR_OK && c == 0);
    astar_grid_free(one);
  }
  /* the 2 x 2 reproducer: (1, 0) forbidden by its tag, then by the array */
  CHECK(astar_grid_set_tag(sq, 1, 0, 1) == ASTAR_OK);
  for (way = 0; way < 2; way++) {
    astar_query_init(&q, 0, 3);
    if (way == 0) {
      q.tag_factor = tagf;
      q.tag_count = 2;
    } else {
      q.forbid = forbid;
    }
    q.algorithm = ASTAR_ALGO_ASTAR;
    CHECK(astar_search_begin(s, astar_grid_topology(sq), &q) == ASTAR_OK);
    CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
    CHECK(astar_search_path(s, 3, nodes, NULL, &cost) == 3 && cost == 2); /* no corner cut */
    q.start = 1;                                                         /* a forbidden start */
    CHECK(astar_search_begin(s, astar_grid_topology(sq), &q) == ASTAR_OK);
    CHECK(astar_search_step(s, 0) == ASTAR_UNREACHABLE);
  }
  /* a hex unit of size 2 (7 cells): not at the edge, the open distance inside */
  astar_query_init(&q, 0, 80);
  q.size = 2;
  CHECK(astar_search_begin(s, astar_grid_topology(hx), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_UNREACHABLE);
  q.start = 3 * 9 + 2;
  q.goal = 6 * 9 + 6;
  CHECK(astar_search_begin(s, astar_grid_topology(hx), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  CHECK(astar_search_path(s, q.goal, nodes, NULL, &cost) > 0 &&
        cost == astar_hex_distance(hx, 2, 3, 6, 6));
  CHECK(astar_grid_clearance(hx, 4, 4) == 5 && astar_grid_clearance(hx, 0, 4) == 1);
  CHECK(astar_grid_set_blocked(hx, 4, 2, 1) == ASTAR_OK);
  CHECK(astar_grid_clearance(hx, 4, 4) == 2 && astar_grid_clearance(hx, 4, 2) == 0);
  /* hex field repair: equal to a fresh field after edits */
  CHECK(astar_grid_track_changes(hx, 64) == ASTAR_OK);
  astar_query_init(&q, 0, 0);
  k = 40;
  CHECK(astar_search_begin_distances(s, astar_grid_topology(hx), &k, 1, 1, &q) == ASTAR_OK);
  field_of(s, hx, d1, n1, l1);
  {
    uint32_t v = astar_topology_version(astar_grid_topology(hx));
    CHECK(astar_grid_set_blocked(hx, 5, 4, 1) == ASTAR_OK);
    CHECK(astar_grid_set_cost(hx, 3, 5, 4) == ASTAR_OK);
    CHECK(astar_grid_set_blocked(hx, 4, 2, 0) == ASTAR_OK);
    CHECK(astar_grid_changes(hx, v, changed, 8, &nch) == ASTAR_OK && nch == 3);
  }
  CHECK(astar_grid_repair_distances(s, hx, &k, 1, 1, &q, d1, l1, changed, nch) == ASTAR_OK);
  field_of(s, hx, d1, n1, l1);
  CHECK(astar_search_begin_distances(s, astar_grid_topology(hx), &k, 1, 1, &q) == ASTAR_OK);
  field_of(s, hx, d2, n2, l2);
  for (k = 0; k < 81; k++) CHECK(d1[k] == d2[k]);
  astar_search_free(s);
  astar_grid_free(hx);
  astar_grid_free(sq);
  astar_graph_free(g);
}

/* Found by fuzz/fuzz_core (UBSan: NULL + 0): a graph without edges never
** allocates its adjacency; searching it must not touch the array. */
static void test_no_edges(void) {
  astar_graph *g = astar_graph_new(NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t id;
  astar_graph_add_node(g, 0, 0, 0, &id);
  astar_graph_add_node(g, 1, 0, 0, &id);
  astar_query_init(&q, 0, 1);
  CHECK(astar_search_begin(s, astar_graph_topology(g), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_UNREACHABLE);
  astar_query_init(&q, 0, 0);
  CHECK(astar_search_begin(s, astar_graph_topology(g), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  astar_search_free(s);
  astar_graph_free(g);
}


/* The topology interface answers the same for both kinds. */
static void test_topology(void) {
  astar_graph *g = seed_graph();
  astar_grid *gr = astar_grid_new(4, 3, ASTAR_DIAG_NEVER, NULL, NULL);
  astar_topology *tg = astar_graph_topology(g), *tr = astar_grid_topology(gr);
  double xyz[3];
  CHECK(strcmp(astar_topology_kind(tg), "graph") == 0);
  CHECK(strcmp(astar_topology_kind(tr), "grid") == 0);
  CHECK(astar_topology_node_count(tg) == 6 && astar_topology_node_count(tr) == 12);
  CHECK(astar_topology_default_heuristic(tg) == ASTAR_H_EUCLIDEAN);
  CHECK(astar_topology_default_heuristic(tr) == ASTAR_H_MANHATTAN);
  CHECK(astar_topology_position(tr, 7, xyz) == ASTAR_OK);
  CHECK(xyz[0] == 3 && xyz[1] == 1 && xyz[2] == 0);
  CHECK(astar_topology_position(tr, 12, xyz) == ASTAR_EINVAL);
  CHECK(astar_topology_passable(tr, 5) == 1);
  astar_grid_set_blocked(gr, 1, 1, 1);
  CHECK(astar_topology_passable(tr, 5) == 0);
  astar_graph_set_enabled(g, 2, 0);
  CHECK(astar_topology_passable(tg, 2) == 0 && astar_topology_passable(tg, -1) == ASTAR_EINVAL);
  CHECK(astar_topology_version(tr) == 1);
  astar_topology_lock(tr, 1);
  CHECK(astar_grid_set_cost(gr, 0, 0, 2) == ASTAR_EBUSY);
  astar_topology_lock(tr, -1);
  CHECK(astar_topology_bytes(tr) >= 2 * 6 * 5);
  astar_graph_free(g);
  astar_grid_free(gr);
}

/* Runs q on t to the end; the cost of the path to the goal, -1 when none. */
static double cost_of(astar_topology *t, const astar_query *q) {
  astar_search *s = astar_search_new(NULL, NULL);
  int32_t nodes[4096];
  double cost = -1;
  if (astar_search_begin(s, t, q) == ASTAR_OK && astar_search_step(s, 0) == ASTAR_FOUND)
    astar_search_path(s, q->goal, nodes, NULL, &cost);
  astar_search_free(s);
  return cost;
}

/* Every query field the fast path does not honour changes the answer on an
** open grid exactly as on the same grid forced onto the general path (a
** cost layer that no path can use): no field is ignored by the fast path. */
static void test_fast_path_honours_fields(void) {
  enum { W = 12, H = 9 };
  astar_grid *open = astar_grid_new(W, H, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_grid *general = astar_grid_new(W, H + 2, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  static double penalty[W * H], forbid[W * H], factor[2] = {1, 3};
  int32_t x, i;
  /* general: the same W x H area, then a wall row and a costly row below */
  for (x = 0; x < W; x++) {
    astar_grid_set_blocked(general, x, H, 1);
    astar_grid_set_cost(general, x, H + 1, 5);
  }
  for (i = 0; i < W * H; i++) penalty[i] = (i % W == 5) ? 4 : 0;
  for (i = 0; i < W * H; i++) forbid[i] = (i % W == 6 && i / W > 0) ? 1 : 0;
  for (i = 0; i < 7; i++) {
    astar_query q;
    double a, b;
    astar_query_init(&q, 0, W * H - 1);
    switch (i) {
      case 0: q.penalty = penalty; break;
      case 1: q.forbid = forbid; break;
      case 2: q.weight = 3; q.heuristic = ASTAR_H_ZERO; break;
      case 3: q.max_cost = 5; break;
      case 4: q.stop = ASTAR_STOP_OPTIMAL; q.heuristic = ASTAR_H_CHEBYSHEV; break;
      case 5: q.penalty = penalty; q.penalty_scale = 0.5; break;
      default: q.tag_factor = factor; q.tag_count = 2; break;
    }
    a = cost_of(astar_grid_topology(open), &q);
    b = cost_of(astar_grid_topology(general), &q);
    CHECK(a == b);
  }
  astar_grid_free(open);
  astar_grid_free(general);
}

/* Errors say what went wrong: the step's own cost, a tag factor, a
** penalty. */
static void test_error_causes(void) {
  astar_grid *gr = astar_grid_new(3, 1, ASTAR_DIAG_NEVER, NULL, NULL);
  astar_topology *t = astar_grid_topology(gr);
  astar_search *s = astar_search_new(NULL, NULL);
  double factor[2] = {1, 1e300}, penalty[3] = {0, -5, 0};
  astar_query q;
  astar_grid_set_cost(gr, 1, 0, 1e10);
  astar_grid_set_tag(gr, 1, 0, 1);
  astar_query_init(&q, 0, 2);
  q.tag_factor = factor;
  q.tag_count = 2;
  CHECK(astar_search_begin(s, t, &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_ECOST);
  CHECK(astar_search_error(s)->cause == ASTAR_CAUSE_TAG_FACTOR);
  CHECK(astar_search_error(s)->node == 1 && astar_search_error(s)->from == 0);
  astar_query_init(&q, 0, 2);
  astar_grid_set_cost(gr, 1, 0, 1);
  q.penalty = penalty;
  CHECK(astar_search_begin(s, t, &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_ECOST);
  CHECK(astar_search_error(s)->cause == ASTAR_CAUSE_PENALTY);
  CHECK(astar_search_error(s)->value == -4);
  astar_search_free(s);
  astar_grid_free(gr);
}

/* Parents of a distance search lead to the nearest source. */
static void test_parents(void) {
  astar_grid *gr = astar_grid_new(5, 1, ASTAR_DIAG_NEVER, NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t src = 0;
  astar_query_init(&q, 0, 0);
  CHECK(astar_search_begin_distances(s, astar_grid_topology(gr), &src, 1, 1, &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  CHECK(astar_search_parent(s, 4) == 3 && astar_search_parent(s, 1) == 0);
  CHECK(astar_search_parent(s, 0) == -1 && astar_search_g(s, 4) == 4);
  CHECK(astar_search_goal(s) == -1);
  astar_search_free(s);
  astar_grid_free(gr);
}

/* Tables are admissible (checked against Dijkstra from every goal) and stop
** serving once the topology changes; the audit agrees. */
static void check_table(astar_topology *t, astar_table *h) {
  int32_t n = astar_topology_node_count(t), goal, v;
  astar_search *d = astar_search_new(NULL, NULL), *s = astar_search_new(NULL, NULL);
  astar_query q;
  astar_audit a;
  astar_query init;
  CHECK(h != NULL && astar_table_serves(h, t));
  for (goal = 0; goal < n; goal += 7) {
    astar_query_init(&q, 0, 0);
    if (astar_search_begin_distances(d, t, &goal, 1, 1, &q) != ASTAR_OK) continue;
    CHECK(astar_search_step(d, 0) == ASTAR_FOUND);
    for (v = 0; v < n; v++) {
      double hv, dist = astar_search_g(d, v);
      CHECK(astar_table_heuristic(h, v, goal, &hv) == 0 && hv >= 0 && isfinite(hv));
      if (dist >= 0) CHECK(hv <= dist * (1 + 1e-9) + 1e-9);
    }
  }
  astar_query_init(&init, 0, 0);
  init.heuristic = ASTAR_H_CALLBACK;
  init.heuristic_fn = astar_table_heuristic;
  init.heuristic_ctx = h;
  CHECK(astar_audit_heuristic(t, &init, 5, s, d, &a) == ASTAR_OK);
  CHECK(a.samples == 5 && a.checked > 0 && a.overestimates == 0);
  /* landmark distances are floats, each term shaved by its rounding error:
  ** consistent up to that, a few 1e-7 of the costs */
  if (astar_table_kind(h) == ASTAR_TABLE_LANDMARKS) CHECK(a.max_inconsistency < 1e-5);
  astar_search_free(s);
  astar_search_free(d);
}

static void test_tables(void) {
  astar_grid *gr = astar_grid_new(16, 12, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_graph *g = seed_graph();
  astar_topology *t = astar_grid_topology(gr);
  astar_table *h;
  int32_t y, labels[6] = {0, 0, 1, 1, -1, 2};
  for (y = 0; y < 10; y++) astar_grid_set_blocked(gr, 7, y, 1);
  astar_grid_set_cost(gr, 3, 3, 4);
  CHECK(astar_landmarks_build(t, 0, NULL, NULL, &h) == ASTAR_EINVAL);
  CHECK(astar_landmarks_build(t, 4, NULL, NULL, &h) == ASTAR_OK);
  CHECK(astar_table_size(h) == 4 && astar_table_bytes(h) > 4 * 2 * 192 * sizeof(float));
  check_table(t, h);
  astar_grid_set_blocked(gr, 0, 0, 1);
  CHECK(!astar_table_serves(h, t));
  astar_table_free(h);
  CHECK(astar_clusters_build(t, NULL, 6, NULL, NULL, &h) == ASTAR_OK);
  CHECK(astar_table_kind(h) == ASTAR_TABLE_CLUSTERS && astar_table_size(h) == 6);
  check_table(t, h);
  astar_table_free(h);
  CHECK(astar_clusters_build(astar_graph_topology(g), labels, 3, NULL, NULL, &h) == ASTAR_OK);
  check_table(astar_graph_topology(g), h);
  astar_table_free(h);
  labels[0] = 3;
  CHECK(astar_clusters_build(astar_graph_topology(g), labels, 3, NULL, NULL, &h) == ASTAR_EINVAL);
  CHECK(h == NULL);
  astar_grid_free(gr);
  astar_graph_free(g);
}

/* The segment walker: the lengths add up to the segment's, a corner crossing
** reports both side cells with length 0, and the walk is symmetric. */
typedef struct walk_log {
  double sum;
  int cells, corners;
} walk_log;

static int log_cell(void *ctx, int32_t x, int32_t y, double len, int corner) {
  walk_log *l = (walk_log *)ctx;
  (void)x;
  (void)y;
  l->sum += len;
  if (corner) l->corners++;
  else l->cells++;
  return 0;
}

static void test_anyangle(void) {
  astar_grid *gr = astar_grid_new(8, 6, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_theta *t = astar_theta_new(NULL, NULL);
  walk_log a = {0, 0, 0}, b = {0, 0, 0};
  astar_query q;
  int32_t pts[16], cells[8] = {0, 1, 2, 3, 11, 19, 27, 35}, keep[8], bad;
  double cost, len, prefix[8];
  CHECK(astar_grid_walk(gr, 0, 0, 5, 2, log_cell, &a) == 0);
  CHECK(fabs(a.sum - sqrt(29.0)) < 1e-12 && a.corners == 0 && a.cells == 8);
  CHECK(astar_grid_walk(gr, 5, 2, 0, 0, log_cell, &b) == 0);
  CHECK(fabs(b.sum - a.sum) < 1e-12 && b.cells == a.cells);
  a.sum = 0;
  a.cells = a.corners = 0;
  CHECK(astar_grid_walk(gr, 0, 0, 3, 3, log_cell, &a) == 0);   /* three corners */
  CHECK(a.corners == 6 && a.cells == 4 && fabs(a.sum - 3 * sqrt(2.0)) < 1e-12);
  CHECK(astar_grid_walk(gr, 0, 0, 8, 0, log_cell, &a) == ASTAR_EINVAL);
  /* segment costs: a cell of cost 5 crossed for its full width */
  astar_grid_set_cost(gr, 2, 0, 5);
  CHECK(astar_grid_segment_cost(gr, NULL, 0, 0, 4, 0, &cost, &bad) == ASTAR_OK);
  CHECK(fabs(cost - 8) < 1e-12);
  astar_grid_set_blocked(gr, 1, 1, 1);    /* a corner with one side blocked */
  CHECK(astar_grid_segment_cost(gr, NULL, 0, 0, 2, 2, &cost, NULL) == ASTAR_OK &&
        cost == HUGE_VAL);
  /* smoothing an L-shaped path round the dear cell: the shortcut from the
  ** first cell would cross (2, 0), so it is refused */
  CHECK(astar_grid_smooth(gr, NULL, cells, 8, keep, prefix, NULL, NULL) >= 2);
  CHECK(keep[0] == 0);
  /* Theta*: a straight line on open ground, the Euclidean length */
  astar_grid_set_cost(gr, 2, 0, 1);
  astar_grid_set_blocked(gr, 1, 1, 0);
  astar_query_init(&q, 0, 5 * 8 + 7);
  CHECK(astar_theta_begin(t, gr, &q) == ASTAR_OK);
  CHECK(astar_theta_step(t, 0) == ASTAR_FOUND);
  CHECK(astar_theta_points(t, 47, pts, &cost, &len) == 2);
  CHECK(fabs(cost - sqrt(49.0 + 25.0)) < 1e-12 && fabs(len - cost) < 1e-12);
  /* a changed grid stops a search in progress */
  CHECK(astar_theta_begin(t, gr, &q) == ASTAR_OK);
  astar_grid_set_blocked(gr, 4, 4, 1);
  CHECK(astar_theta_step(t, 1) == ASTAR_ECHANGED);
  q.cost_fn = (astar_cost_fn)0;
  q.weight = -1;
  CHECK(astar_theta_begin(t, gr, &q) == ASTAR_EINVAL);
  astar_theta_free(t);
  astar_grid_free(gr);
}

/* Theta* when the cost of reaching a cell overflows: EOVERFLOW naming the
** cell, as A* stops (each segment finite, the sum with g not). */
static void test_anyangle_overflow(void) {
  astar_grid *gr = astar_grid_new(3, 1, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_theta *t = astar_theta_new(NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  double value = 0;
  int32_t x;
  for (x = 0; x < 3; x++) astar_grid_set_cost(gr, x, 0, 1e308);
  astar_query_init(&q, 0, 2);
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_EOVERFLOW && astar_search_error(s)->node == 2);
  CHECK(astar_theta_begin(t, gr, &q) == ASTAR_OK);
  CHECK(astar_theta_step(t, 0) == ASTAR_EOVERFLOW);
  CHECK(astar_theta_bad(t, &value) == 2 && value == HUGE_VAL);
  astar_search_free(s);
  astar_theta_free(t);
  astar_grid_free(gr);
}

/* Theta*'s fast mode (uniform costs) whose inner search ended at its
** begin (the goal walled off: UNREACHABLE at once) refuses to step after an
** edit, as every search begun before one (a fuzz finding). */
static void test_theta_fast_changed(void) {
  astar_grid *gr = astar_grid_new(3, 3, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_theta *t = astar_theta_new(NULL, NULL);
  astar_query q;
  int32_t y;
  for (y = 0; y < 3; y++) astar_grid_set_blocked(gr, 1, y, 1);
  astar_query_init(&q, 0, 2);
  CHECK(astar_theta_begin(t, gr, &q) == ASTAR_OK && astar_theta_status(t) == ASTAR_SEARCHING);
  astar_grid_set_blocked(gr, 1, 1, 0);
  CHECK(astar_theta_step(t, 0) == ASTAR_ECHANGED);
  CHECK(astar_theta_begin(t, gr, &q) == ASTAR_OK && astar_theta_step(t, 0) == ASTAR_FOUND);
  astar_theta_free(t);
  astar_grid_free(gr);
}

/* astar__grid_pass (the any-angle mode's segment test: an error term, runs
** along one axis, a loop without the forbid field) against the walk it
** replaced, written here with the products of its definition: after i
** steps in x and j in y the next crossing is vertical, horizontal or a
** corner as (2i + 1) ny - (2j + 1) nx is < 0, > 0 or 0.  Random grids of
** every diagonal rule, with and without a forbid field, random segments
** (steep, shallow, exact diagonals, single cells), strict and not. */
static int pass_oracle(const astar_grid *gr, const double *forbid, int strict, int32_t x0,
                       int32_t y0, int32_t x1, int32_t y1) {
  int64_t nx = x1 > x0 ? x1 - x0 : x0 - x1, ny = y1 > y0 ? y1 - y0 : y0 - y1, i = 0, j = 0;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1, x = x0, y = y0;
  int32_t w = astar_grid_width(gr);
  int always = astar_grid_diagonal(gr) == ASTAR_DIAG_ALWAYS;
#define ORACLE_SHUT(x, y) (astar_grid_blocked(gr, x, y) || (forbid && forbid[(y) * w + (x)] != 0))
  if (ORACLE_SHUT(x, y)) return 0;
  while (i < nx || j < ny) {
    int64_t d = (2 * i + 1) * ny - (2 * j + 1) * nx;
    if (d == 0) {
      int a = ORACLE_SHUT(x + sx, y), c = ORACLE_SHUT(x, y + sy);
      if (strict ? (a || c) : (a && c && !always)) return 0;
      x += sx, y += sy, i++, j++;
    } else if (d < 0) {
      x += sx, i++;
    } else {
      y += sy, j++;
    }
    if (ORACLE_SHUT(x, y)) return 0;
  }
#undef ORACLE_SHUT
  return 1;
}

static void test_grid_pass(void) {
  static const int rules[4] = {ASTAR_DIAG_NEVER, ASTAR_DIAG_NO_CORNER_CUTTING,
                               ASTAR_DIAG_ONE_OBSTACLE, ASTAR_DIAG_ALWAYS};
  enum { W = 37, H = 23 };
  double forbid[W * H];
  int r, k, bad = 0, passes = 0;
  for (r = 0; r < 4; r++) {
    astar_grid *gr = astar_grid_new(W, H, rules[r], NULL, NULL);
    int32_t x, y;
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++) {
        astar_grid_set_blocked(gr, x, y, jump_rand(100) < 12);
        forbid[y * W + x] = jump_rand(100) < 5;
      }
    for (k = 0; k < 6000; k++) {
      int32_t x0 = jump_rand(W), y0 = jump_rand(H), x1, y1, strict = jump_rand(2);
      const double *f = k % 3 == 0 ? forbid : NULL;
      switch (jump_rand(4)) {
        case 0: x1 = x0 + jump_rand(2 * H) - H, y1 = y0 + (x1 - x0); break; /* diagonal */
        case 1: x1 = x0, y1 = jump_rand(H); break;                          /* vertical */
        case 2: x1 = jump_rand(W), y1 = y0 + jump_rand(3) - 1; break;       /* shallow */
        default: x1 = jump_rand(W), y1 = jump_rand(H); break;
      }
      if (x1 < 0 || y1 < 0 || x1 >= W || y1 >= H) x1 = jump_rand(W), y1 = jump_rand(H);
      if (astar__grid_pass(gr, x0, y0, x1, y1, f, strict) !=
          pass_oracle(gr, f, strict, x0, y0, x1, y1))
        bad++;
      passes += pass_oracle(gr, f, strict, x0, y0, x1, y1);
    }
    astar_grid_free(gr);
  }
  CHECK(bad == 0);
  CHECK(passes > 2000); /* both answers are tested often */
}

/* The lane (Lazy Theta* round the cell path, taut.c) runs only where at
** least half the turns are beside a small obstacle.  Given points much
** longer than the best (the cell path of a staircase itself), the lane
** would shorten them; on open ground (no turn beside an obstacle) it does
** not run, beside a single blocked cell it does. */
static void test_lane_gate(void) {
  enum { W = 12, N = W * W };
  astar_grid *gr = astar_grid_new(W, W, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  double g[N], f[N];
  int32_t parent[N], hpos[N], heap[N], out[64], stair[9], hug[5] = {63, 52, 53, 54, 67}, i;
  uint32_t stamp[N], gen = 0;
  astar__lane l;
  memset(stamp, 0, sizeof stamp);
  l.g = g, l.f = f, l.parent = parent, l.hpos = hpos, l.heap = heap;
  l.stamp = stamp, l.gen = &gen, l.cells = N;
  /* (1, 1) to (5, 5) by steps east and south: every cell a turn */
  for (i = 0; i < 9; i++) stair[i] = (1 + i / 2) * W + 1 + (i + 1) / 2;
  CHECK(astar__grid_lane(gr, NULL, 1, &l, stair, 9, stair, 9, out) == 0);
  /* (3, 5) to (7, 5) round the blocked (5, 5) by (4, 4) (5, 4) (6, 4), each
  ** turn beside it: (3, 5) (5, 4) (7, 5) is shorter */
  astar_grid_set_blocked(gr, 5, 5, 1);
  CHECK(astar__grid_lane(gr, NULL, 1, &l, hug, 5, hug, 5, out) == 3);
  astar_grid_free(gr);
}

/* astar_grid_step_fault: the search's move rule asked of one step. */
static void test_step_fault(void) {
  astar_grid *gr = astar_grid_new(4, 4, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_grid *nv = astar_grid_new(4, 4, ASTAR_DIAG_NEVER, NULL, NULL);
  double forbid[16];
  astar_query q;
  int32_t cell = 0;
  memset(forbid, 0, sizeof forbid);
  astar_query_init(&q, 0, 0);
  astar_grid_set_blocked(gr, 1, 0, 1);
  CHECK(astar_grid_step_fault(gr, NULL, 0, 4, &cell) == ASTAR_STEP_OK && cell == -1);
  CHECK(astar_grid_step_fault(gr, NULL, 0, 5, &cell) == ASTAR_STEP_CORNER);
  CHECK(astar_grid_step_fault(gr, NULL, 0, 1, &cell) == ASTAR_STEP_BLOCKED && cell == 1);
  CHECK(astar_grid_step_fault(gr, NULL, -1, 1, NULL) == ASTAR_STEP_BLOCKED);
  CHECK(astar_grid_step_fault(gr, NULL, 0, 0, NULL) == ASTAR_STEP_SAME);
  CHECK(astar_grid_step_fault(gr, NULL, 0, 2 * 4, NULL) == ASTAR_STEP_FAR);
  CHECK(astar_grid_step_fault(gr, NULL, 0, 16, NULL) == ASTAR_EINVAL);
  CHECK(astar_grid_step_fault(nv, NULL, 0, 5, NULL) == ASTAR_STEP_DIAGONAL);
  /* a forbidden cell: not entered, not stood on, and closes a corner */
  forbid[4] = 1;
  q.forbid = forbid;
  CHECK(astar_grid_step_fault(nv, &q, 0, 4, &cell) == ASTAR_STEP_FORBIDDEN && cell == 4);
  CHECK(astar_grid_step_fault(nv, &q, -1, 4, NULL) == ASTAR_STEP_FORBIDDEN);
  astar_grid_set_blocked(gr, 1, 0, 0);
  CHECK(astar_grid_step_fault(gr, &q, 0, 5, NULL) == ASTAR_STEP_CORNER);
  CHECK(astar_grid_step_fault(gr, NULL, 0, 5, NULL) == ASTAR_STEP_OK);
  /* a 2 x 2 unit: its block must fit */
  q.forbid = NULL;
  q.size = 2;
  CHECK(astar_grid_step_fault(gr, &q, 2, 3, &cell) == ASTAR_STEP_BLOCKED && cell == -1);
  astar_grid_free(gr);
  astar_grid_free(nv);
}

/* astar_graph_step_fault: a path's step as a graph search takes it. */
static void test_graph_step_fault(void) {
  astar_graph *g = astar_graph_new(NULL, NULL);
  double forbid[3] = {0, 0, 0}, factors[3] = {1, 1, ASTAR_FORBID};
  astar_query q;
  int32_t id, e0, e1;
  for (e0 = 0; e0 < 3; e0++) CHECK(astar_graph_add_node(g, e0, 0, 0, &id) == ASTAR_OK && id == e0);
  CHECK(astar_graph_add_edge(g, 0, 1, 1, 0, &e0) == ASTAR_OK);
  CHECK(astar_graph_add_edge(g, 1, 2, 1, 2, &e1) == ASTAR_OK);
  astar_query_init(&q, 0, 2);
  CHECK(astar_graph_step_fault(g, NULL, 0, e0, 1) == ASTAR_STEP_OK);
  CHECK(astar_graph_step_fault(g, &q, 1, e1, 2) == ASTAR_STEP_OK);
  CHECK(astar_graph_step_fault(g, NULL, 1, e0, 0) == ASTAR_STEP_FAR); /* edges are directed */
  CHECK(astar_graph_step_fault(g, NULL, 0, e1, 2) == ASTAR_STEP_FAR);
  CHECK(astar_graph_step_fault(g, NULL, 0, 2, 1) == ASTAR_EINVAL);
  CHECK(astar_graph_step_fault(g, NULL, -2, e0, 1) == ASTAR_EINVAL);
  CHECK(astar_graph_step_fault(g, NULL, -1, -5, 3) == ASTAR_EINVAL);
  CHECK(astar_graph_step_fault(g, NULL, -1, -5, 2) == ASTAR_STEP_OK); /* edge ignored */
  /* a forbidding tag closes its edges, not the node */
  q.tag_factor = factors;
  q.tag_count = 3;
  CHECK(astar_graph_step_fault(g, &q, 1, e1, 2) == ASTAR_STEP_TAG);
  CHECK(astar_graph_step_fault(g, &q, -1, e1, 2) == ASTAR_STEP_OK);
  q.tag_count = 2; /* the factor list stops before tag 2 */
  CHECK(astar_graph_step_fault(g, &q, 1, e1, 2) == ASTAR_STEP_OK);
  forbid[1] = 1;
  q.forbid = forbid;
  CHECK(astar_graph_step_fault(g, &q, 0, e0, 1) == ASTAR_STEP_FORBIDDEN);
  CHECK(astar_graph_step_fault(g, &q, -1, 0, 1) == ASTAR_STEP_FORBIDDEN);
  CHECK(astar_graph_set_enabled(g, 1, 0) == ASTAR_OK); /* disabled comes first */
  CHECK(astar_graph_step_fault(g, &q, 0, e0, 1) == ASTAR_STEP_BLOCKED);
  CHECK(astar_graph_step_fault(g, NULL, -1, 0, 1) == ASTAR_STEP_BLOCKED);
  astar_graph_free(g);
}

/* Sized units through the C API: the clearance layer, sizes out of range,
** a graph refusing sizes, and a 2 x 2 unit kept out of a one-cell gap. */
static void test_sizes(void) {
  astar_grid *gr = astar_grid_new(6, 4, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_graph *g = seed_graph();
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t y, nodes[32];
  double cost = -1;
  size_t before = astar_topology_bytes(astar_grid_topology(gr));
  CHECK(astar_topology_max_size(astar_grid_topology(gr)) == ASTAR_MAX_UNIT);
  CHECK(astar_topology_max_size(astar_graph_topology(g)) == 1);
  CHECK(astar_grid_clearance(gr, 0, 0) == 4);
  CHECK(astar_grid_clearance(gr, 6, 0) == ASTAR_EINVAL);
  CHECK(astar_topology_bytes(astar_grid_topology(gr)) == before + 8 * 6);
  for (y = 0; y < 3; y++) astar_grid_set_blocked(gr, 3, y, 1); /* a gap at the bottom */
  CHECK(astar_grid_clearance(gr, 0, 0) == 3 && astar_grid_clearance(gr, 2, 3) == 1);
  astar_query_init(&q, 0, 4);  /* (0, 0) -> (4, 0) */
  CHECK(q.size == 1);
  q.size = 0;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_EINVAL);
  q.size = ASTAR_MAX_UNIT + 1;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_EINVAL);
  q.size = 2;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_UNREACHABLE);
  q.size = 1;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  astar_grid_set_blocked(gr, 3, 2, 0);                /* two cells high now */
  q.size = 2;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  CHECK(astar_search_path(s, 4, nodes, NULL, &cost) > 0 && cost > 4);
  CHECK(astar_grid_line_of_sight_size(gr, 0, 2, 4, 2, 2) == 1);
  CHECK(astar_grid_line_of_sight_size(gr, 0, 1, 4, 1, 2) == 0);
  CHECK(astar_grid_line_of_sight_size(gr, 0, 2, 4, 2, 0) == ASTAR_EINVAL);
  astar_query_init(&q, 0, 5);
  q.size = 2;
  CHECK(astar_search_begin(s, astar_graph_topology(g), &q) == ASTAR_EINVAL);
  astar_search_free(s);
  astar_graph_free(g);
  astar_grid_free(gr);
}

/* The compiled core and the header agree on the version, and the macros
** spell it. */
static void test_version(void) {
  char buf[32];
  snprintf(buf, sizeof buf, "%d.%d.%d", ASTAR_VERSION_MAJOR, ASTAR_VERSION_MINOR,
           ASTAR_VERSION_PATCH);
  CHECK(strcmp(astar_version(), ASTAR_VERSION) == 0);
  CHECK(strcmp(buf, ASTAR_VERSION) == 0);
}

/* Paged search state: a short query on a big grid holds a few pages; the
** generation wraps without stale state leaking into answers; components
** prove unreachability before any expansion and follow edits. */
static void test_pages_and_components(void) {
  astar_grid *gr = astar_grid_new(1000, 1000, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_topology *t = astar_grid_topology(gr);
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  double cost = 0;
  int32_t nodes[64], y, i;
  astar_query_init(&q, 500 * 1000 + 500, 500 * 1000 + 530);
  CHECK(astar_search_begin(s, t, &q) == ASTAR_OK && astar_search_step(s, 0) == ASTAR_FOUND);
  CHECK(astar_search_path(s, q.goal, nodes, NULL, &cost) == 31 && cost == 30);
  /* the directory (16 bytes per 64 cells) and a handful of pages, not 20 MB */
  CHECK(astar_search_bytes(s) < 400 * 1024);
  /* across the generation's wrap: the same answers, every time */
  s->gen = UINT32_MAX - 2;
  for (i = 0; i < 5; i++) {
    astar_query_init(&q, 10 * 1000 + 10 + i, 12 * 1000 + 40);
    CHECK(astar_search_begin(s, t, &q) == ASTAR_OK && astar_search_step(s, 0) == ASTAR_FOUND);
    CHECK(astar_search_g(s, 500 * 1000 + 530) == -1);   /* not this query's */
    CHECK(fabs(astar_search_g(s, q.goal) - (28 - i + 2 * ASTAR_GRID_DIAG)) < 1e-9);
  }
  CHECK(s->gen < 10);
  /* a wall: the far side is another component, proven with no expansion */
  for (y = 0; y < 1000; y++) CHECK(astar_grid_set_blocked(gr, 600, y, 1) == ASTAR_OK);
  CHECK(astar_topology_connected(t, 0, 999) == 0);
  CHECK(astar_topology_connected(t, 0, 599) == 1);
  astar_query_init(&q, 0, 999);
  CHECK(astar_search_begin(s, t, &q) == ASTAR_OK && astar_search_step(s, 0) == ASTAR_UNREACHABLE);
  CHECK(astar_search_stats(s)->expanded == 0);
  q.track_best = 1;             /* partial: searches its own side; the */
  q.max_expansions = 100;       /* budget only bounds the partial path */
  CHECK(astar_search_begin(s, t, &q) == ASTAR_OK && astar_search_step(s, 0) == ASTAR_UNREACHABLE);
  CHECK(astar_search_stats(s)->expanded == 100 && astar_search_best(s) >= 0);
  /* a gate: the edit only marks its sector; the next question relabels
  ** that sector (and the small graph of sectors), never the whole grid */
  {
    uint32_t full = t->comps.relabels, local = t->ops->conn->count(t, 0);
    CHECK(astar_grid_set_blocked(gr, 600, 500, 0) == ASTAR_OK);
    CHECK(!astar_topology_components_current(t));
    CHECK(astar_topology_connected(t, 0, 999) == 1);
    CHECK(astar_topology_components_current(t));
    CHECK(t->comps.relabels == full && t->ops->conn->count(t, 0) == local + 1);
  }
  CHECK(astar_topology_connected(t, -1, 0) == ASTAR_EINVAL);
  astar_search_free(s);
  astar_grid_free(gr);
  {
    /* a new grid's first edit labels it (as all open, then the edit): no
    ** later question labels the grid; a goal proven unreachable by them
    ** never sizes the search's directory (16 bytes per 64 cells) */
    astar_grid *fg = astar_grid_new(1000, 1000, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
    astar_topology *ft = astar_grid_topology(fg);
    astar_search *fs = astar_search_new(NULL, NULL);
    uint32_t full = ft->comps.relabels;
    CHECK(astar_grid_set_blocked(fg, 500, 500, 1) == ASTAR_OK);
    CHECK(astar_topology_components_current(ft));
    CHECK(ft->comps.relabels == full + 1 && ft->ops->conn->count(ft, 0) == 0);
    for (y = 0; y < 1000; y++) CHECK(astar_grid_set_blocked(fg, 300, y, 1) == ASTAR_OK);
    CHECK(astar_topology_connected(ft, 0, 999) == 0);
    CHECK(ft->comps.relabels == full + 1); /* the column's sectors, not the grid */
    CHECK(ft->ops->conn->count(ft, 0) > 0 && ft->ops->conn->count(ft, 0) <= 2 * 32);
    astar_query_init(&q, 0, 999);
    CHECK(astar_search_begin(fs, ft, &q) == ASTAR_OK &&
          astar_search_step(fs, 0) == ASTAR_UNREACHABLE);
    CHECK(astar_search_bytes(fs) < 4096);
    astar_search_free(fs);
    astar_grid_free(fg);
  }
  {
    /* a graph: a disabled node's bounded check keeps the labels current,
    ** with the side that split off labelled apart (no relabel) */
    astar_graph *g = astar_graph_new(NULL, NULL);
    astar_topology *gt = astar_graph_topology(g);
    int32_t id, e, k;
    uint32_t full;
    for (k = 0; k < 100; k++) CHECK(astar_graph_add_node(g, k, 0, 0, &id) == ASTAR_OK);
    for (k = 0; k + 1 < 100; k++) CHECK(astar_graph_add_edge(g, k, k + 1, 1, 0, &e) == ASTAR_OK);
    CHECK(astar_graph_add_edge(g, 0, 50, 1, 0, &e) == ASTAR_OK); /* a ring 0..50 */
    CHECK(astar_topology_connected(gt, 0, 99) == 1);
    full = gt->comps.relabels;
    CHECK(astar_graph_set_enabled(g, 25, 0) == ASTAR_OK); /* the ring holds */
    CHECK(astar_topology_components_current(gt));
    CHECK(astar_topology_connected(gt, 24, 26) == 1 && astar_topology_connected(gt, 25, 26) == 0);
    CHECK(astar_graph_set_enabled(g, 70, 0) == ASTAR_OK); /* splits 71..99 off */
    CHECK(astar_topology_components_current(gt));
    CHECK(astar_topology_connected(gt, 0, 69) == 1 && astar_topology_connected(gt, 0, 71) == 0);
    CHECK(astar_topology_connected(gt, 71, 99) == 1);
    CHECK(astar_graph_set_enabled(g, 10, 0) == ASTAR_OK); /* 11..24 split off */
    CHECK(astar_topology_connected(gt, 11, 24) == 1 && astar_topology_connected(gt, 0, 24) == 0);
    CHECK(astar_topology_connected(gt, 0, 69) == 1);
    CHECK(gt->comps.relabels == full);
    astar_graph_free(g);
  }
}

/* Edits as one change (astar_grid_edits_begin/_end): one version for the
** batch, a log line per changed cell; the component labels right whatever
** the batch opens and closes; astar_grid_changes across batches, gaps and
** a ring that dropped lines. */
static void test_edits(void) {
  astar_grid *gr = astar_grid_new(5, 3, ASTAR_DIAG_NEVER, NULL, NULL);
  astar_topology *t = astar_grid_topology(gr);
  int32_t cells[16];
  size_t n = 0;
  uint32_t v0;
  int32_t y;
  CHECK(astar_grid_track_changes(gr, 8) == ASTAR_OK);
  v0 = astar_topology_version(t);
  astar_grid_edits_begin(gr);
  for (y = 0; y < 3; y++) CHECK(astar_grid_set_blocked(gr, 2, y, 1) == ASTAR_OK); /* a wall */
  CHECK(astar_grid_set_blocked(gr, 2, 1, 1) == ASTAR_OK); /* no change: no line */
  astar_grid_edits_end(gr);
  CHECK(astar_topology_version(t) == v0 + 1);
  CHECK(astar_grid_changes(gr, v0, cells, 16, &n) == ASTAR_OK && n == 3);
  CHECK(n == 3 && cells[0] == 2 * 5 + 2 && cells[2] == 2);      /* newest first */
  CHECK(astar_grid_changes(gr, v0, cells, 2, &n) == ASTAR_EOVERFLOW); /* room for 2 */
  CHECK(astar_topology_components_refresh(t) == ASTAR_OK);
  CHECK(astar_topology_connected(t, 0, 4) == 0);
  /* one batch that opens the wall's middle (kept: the labels merge), then
  ** closes the corridor on the right at x = 3 (a split the labels must not
  ** miss although the version does not move again) */
  astar_grid_edits_begin(gr);
  CHECK(astar_grid_set_blocked(gr, 2, 1, 0) == ASTAR_OK);
  for (y = 0; y < 3; y++) CHECK(astar_grid_set_blocked(gr, 3, y, 1) == ASTAR_OK);
  astar_grid_edits_end(gr);
  CHECK(astar_topology_version(t) == v0 + 2);
  CHECK(astar_topology_connected(t, 0, 4) == 0);      /* (0,0) and (4,0): cut at x = 3 */
  CHECK(astar_topology_connected(t, 0, 7) == 1);      /* (0,0) and (2,1): through the gap */
  CHECK(astar_grid_changes(gr, v0 + 1, cells, 16, &n) == ASTAR_OK && n == 4);
  CHECK(astar_grid_changes(gr, v0, cells, 16, &n) == ASTAR_OK && n == 7); /* both batches */
  /* a single edit after the batch: its own version, its own line */
  CHECK(astar_grid_set_blocked(gr, 0, 2, 1) == ASTAR_OK);
  CHECK(astar_topology_version(t) == v0 + 3);
  CHECK(astar_grid_changes(gr, v0 + 2, cells, 16, &n) == ASTAR_OK && n == 1 && cells[0] == 10);
  CHECK(astar_grid_changes(gr, v0 + 1, cells, 16, &n) == ASTAR_OK && n == 5);
  /* a ninth line: the ring (8) drops the first batch's oldest, so only a
  ** full recomputation is safe from v0; from v0 + 1 the lines are all kept */
  CHECK(astar_grid_set_blocked(gr, 1, 2, 1) == ASTAR_OK);
  CHECK(astar_grid_changes(gr, v0, cells, 16, &n) == ASTAR_EOVERFLOW);
  CHECK(astar_grid_changes(gr, v0 + 1, cells, 16, &n) == ASTAR_OK && n == 6);
  /* an empty batch makes no version */
  astar_grid_edits_begin(gr);
  astar_grid_edits_end(gr);
  CHECK(astar_topology_version(t) == v0 + 4);
  astar_grid_free(gr);
}

/* A graph's change log (astar_graph_track_changes/_changes) and the repair
** of a running graph search: what each mutator logs, a log that does not
** reach back, bad ids refused (EINVAL, begin again), a node added while the
** search ran (its directory grows), and the repaired answer against a
** fresh search's. */
static void test_graph_repair(void) {
  astar_graph *g = astar_graph_new(NULL, NULL);
  astar_topology *t = astar_graph_topology(g);
  astar_search *s = astar_search_new(NULL, NULL), *f = astar_search_new(NULL, NULL);
  astar_query q;
  int32_t what[32], id, i, bad;
  size_t n = 9;
  uint32_t v0;
  for (i = 0; i < 6; i++) CHECK(astar_graph_add_node(g, i, 0, 0, &id) == ASTAR_OK);
  for (i = 0; i < 5; i++) CHECK(astar_graph_add_edge(g, i, i + 1, 1, 0, &id) == ASTAR_OK);
  v0 = astar_topology_version(t);
  CHECK(astar_graph_changes(g, v0, what, 8, &n) == ASTAR_OK && n == 0);
  CHECK(astar_graph_changes(g, v0 - 1, what, 8, &n) == ASTAR_EOVERFLOW); /* no log yet */
  CHECK(astar_graph_track_changes(g, 4) == ASTAR_OK);
  CHECK(astar_graph_changes(g, v0 - 1, what, 8, &n) == ASTAR_EOVERFLOW); /* before it */
  CHECK(astar_graph_set_enabled(g, 2, 0) == ASTAR_OK);
  CHECK(astar_graph_set_enabled(g, 2, 0) == ASTAR_OK); /* no change: no line */
  CHECK(astar_graph_set_cost(g, 4, 2) == ASTAR_OK);
  CHECK(astar_graph_changes(g, v0, what, 8, &n) == ASTAR_OK && n == 2);
  CHECK(n == 2 && what[0] == 2 && what[1] == -1 - 4); /* oldest first */
  CHECK(astar_graph_changes(g, v0, what, 1, &n) == ASTAR_EOVERFLOW); /* room for 1 */
  CHECK(astar_graph_set_enabled(g, 2, 1) == ASTAR_OK);
  CHECK(astar_graph_add_node(g, 9, 9, 0, &id) == ASTAR_OK && id == 6);
  CHECK(astar_graph_add_edge(g, 1, 3, 5, 0, &bad) == ASTAR_OK);
  CHECK(astar_graph_changes(g, v0, what, 8, &n) == ASTAR_OK && n == 5 && what[3] == 6);
  CHECK(what[4] == -1 - bad);
  for (i = 0; i < 12; i++) CHECK(astar_graph_set_cost(g, 0, 2 - i % 2) == ASTAR_OK);
  CHECK(astar_graph_changes(g, v0, what, 32, &n) == ASTAR_EOVERFLOW); /* a ring of 16 */
  CHECK(astar_graph_changes(g, v0 + 1, what, 32, &n) == ASTAR_OK && n == 16);
  /* a search stepped a little, then edited: a node added and tied in, the
  ** route's middle disabled (a detour through the added edge 1 -> 3) */
  astar_query_init(&q, 0, 5);
  CHECK(astar_search_begin(s, t, &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 3) == ASTAR_SEARCHING);
  v0 = astar_topology_version(t);
  for (i = 0; i < 40; i++) CHECK(astar_graph_add_node(g, 10 + i, 5, 0, &id) == ASTAR_OK);
  CHECK(astar_graph_add_edge(g, 0, id, 1, 0, &bad) == ASTAR_OK);
  CHECK(astar_graph_set_enabled(g, 2, 0) == ASTAR_OK);
  CHECK(astar_graph_changes(g, v0, what, 8, &n) == ASTAR_EOVERFLOW); /* 42 changes */
  CHECK(astar_graph_track_changes(g, 64) == ASTAR_OK);              /* a new, empty log */
  CHECK(astar_graph_changes(g, v0 + 41, what, 8, &n) == ASTAR_EOVERFLOW);
  CHECK(astar_graph_changes(g, v0, what, 8, &n) == ASTAR_EOVERFLOW);
  v0 = astar_topology_version(t);
  CHECK(astar_graph_set_cost(g, 0, 1.5) == ASTAR_OK);
  CHECK(astar_graph_changes(g, v0, what, 8, &n) == ASTAR_OK && n == 1);
  /* euclidean, and edges shorter than their ends' distance now (0 -> 49
  ** costs 1): the estimate may overestimate, no repair */
  CHECK(astar_search_repair(s, what, n, &q, NULL, 0, NULL) == ASTAR_EINVAL);
  q.heuristic = ASTAR_H_ZERO;
  CHECK(astar_search_begin(s, t, &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 3) == ASTAR_SEARCHING);
  bad = 99;
  CHECK(astar_search_repair(s, &bad, 1, &q, NULL, 0, NULL) == ASTAR_EINVAL);
  CHECK(astar_search_begin(s, t, &q) == ASTAR_OK && astar_search_step(s, 3) == ASTAR_SEARCHING);
  bad = -1 - 999;
  CHECK(astar_search_repair(s, &bad, 1, &q, NULL, 0, NULL) == ASTAR_EINVAL);
  /* EINVAL: begin again; then a repair of every change since (the added
  ** nodes too) */
  CHECK(astar_search_begin(s, t, &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 2) == ASTAR_SEARCHING);
  v0 = astar_topology_version(t);
  CHECK(astar_graph_add_node(g, 60, 5, 0, &id) == ASTAR_OK);
  CHECK(astar_graph_add_edge(g, id, 5, 1, 0, &bad) == ASTAR_OK);
  CHECK(astar_graph_add_edge(g, 1, id, 60, 0, &bad) == ASTAR_OK);
  CHECK(astar_graph_set_enabled(g, 3, 0) == ASTAR_OK);
  CHECK(astar_graph_changes(g, v0, what, 8, &n) == ASTAR_OK && n == 4);
  CHECK(astar_search_repair(s, what, n, &q, NULL, 0, NULL) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  CHECK(astar_search_begin(f, t, &q) == ASTAR_OK && astar_search_step(f, 0) == ASTAR_FOUND);
  CHECK(astar_search_g(s, 5) == astar_search_g(f, 5) && astar_search_g(s, 5) == 62.5);
  astar_search_free(s);
  astar_search_free(f);
  astar_graph_free(g);
}

/* A door closed on a room: the split found at the edit by the lockstep
** flood from the door's two sides (the room's side is small), so the next
** question relabels no sector; a door opened again joins (a relabel); a
** wall across a sector with one gap: closing the gap splits the sector in
** two large sides, past the lockstep's cap, so the sector is relabelled. */
static void test_split_lockstep(void) {
  astar_grid *gr = astar_grid_new(1024, 1024, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_topology *t = astar_grid_topology(gr);
  int32_t i, y;
  uint32_t local, graph;
  for (i = 40; i <= 44; i++) { /* a room of 3 x 3 inside the walls 40..44 */
    CHECK(astar_grid_set_blocked(gr, i, 40, 1) == ASTAR_OK);
    CHECK(astar_grid_set_blocked(gr, i, 44, 1) == ASTAR_OK);
    CHECK(astar_grid_set_blocked(gr, 40, i, 1) == ASTAR_OK);
    if (i != 42) CHECK(astar_grid_set_blocked(gr, 44, i, 1) == ASTAR_OK); /* the door */
  }
  CHECK(astar_topology_connected(t, 42 * 1024 + 42, 0) == 1);
  local = t->ops->conn->count(t, 0);
  graph = t->ops->conn->count(t, 1);
  CHECK(astar_grid_set_blocked(gr, 44, 42, 1) == ASTAR_OK); /* the door closed */
  CHECK(astar_topology_connected(t, 42 * 1024 + 42, 0) == 0);
  CHECK(astar_topology_connected(t, 41 * 1024 + 41, 43 * 1024 + 43) == 1);
  CHECK(astar_topology_connected(t, 42 * 1024 + 45, 0) == 1);
  CHECK(t->ops->conn->count(t, 0) == local && t->ops->conn->count(t, 1) == graph + 1);
  CHECK(astar_grid_set_blocked(gr, 44, 42, 0) == ASTAR_OK); /* opened: joins */
  CHECK(astar_topology_connected(t, 42 * 1024 + 42, 0) == 1);
  CHECK(t->ops->conn->count(t, 0) == local + 1);
  /* column 80 walled across the sector rows 64..95 but for row 70 */
  for (y = 0; y < 1024; y++)
    if (y != 70) CHECK(astar_grid_set_blocked(gr, 80, y, 1) == ASTAR_OK);
  CHECK(astar_topology_connected(t, 0, 1023) == 1);
  local = t->ops->conn->count(t, 0);
  CHECK(astar_grid_set_blocked(gr, 80, 70, 1) == ASTAR_OK);
  CHECK(astar_topology_connected(t, 0, 1023) == 0);
  CHECK(astar_topology_connected(t, 70 * 1024 + 79, 70 * 1024 + 81) == 0);
  CHECK(t->ops->conn->count(t, 0) == local + 1);
  astar_grid_free(gr);
}

/* ------------------------------------------------------------------------ */
/* sparse state: jump point searches' slots (engine.h)                        */
/* ------------------------------------------------------------------------ */

/* An allocator that gives `sparse_left` more blocks (or growths), then
** fails until it is set again (-1: never fails); frees always work. */
static long sparse_left = -1;
static void *sparse_alloc(void *ud, void *p, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(p);
    return NULL;
  }
  if (sparse_left == 0) return NULL;
  if (sparse_left > 0) sparse_left--;
  return realloc(p, nsize);
}

/* The octile distance as a callback (the query keeps extras: hc pages). */
static int sparse_octile(void *ctx, int32_t node, int32_t goal, double *h) {
  int32_t w = *(const int32_t *)ctx, dx = abs(node % w - goal % w), dy = abs(node / w - goal / w);
  *h = dx < dy ? (ASTAR_GRID_DIAG - 1) * dx + dy : (ASTAR_GRID_DIAG - 1) * dy + dx;
  return 0;
}

/* A 200 x 200 map with walls, gaps and scattered blocks: jump point
** searches on it touch a few hundred nodes far apart. */
static astar_grid *sparse_maze(astar_alloc_fn alloc) {
  astar_grid *gr = astar_grid_new(200, 200, ASTAR_DIAG_NO_CORNER_CUTTING, alloc, NULL);
  int32_t x, y;
  for (y = 0; y < 200; y++)
    for (x = 0; x < 200; x++)
      if ((x % 25 == 12 && y % 50 != 7 && y % 50 != 31) || (x * 7 + y * 13) % 17 == 0)
        CHECK(astar_grid_set_blocked(gr, x, y, 1) == ASTAR_OK);
  return gr;
}

/* Runs q on s; its status, and with FOUND the goal's cost in *cost. */
static int sparse_run(astar_search *s, astar_topology *t, const astar_query *q, double *cost) {
  int rc = astar_search_begin(s, t, q);
  if (rc != ASTAR_OK) return rc;
  rc = astar_search_step(s, 0);
  if (rc == ASTAR_FOUND) {
    int32_t nodes[4096];
    CHECK(astar_search_path_length(s, q->goal) <= 4096);
    CHECK(astar_search_path(s, q->goal, nodes, NULL, cost) > 0);
    CHECK(fabs(astar_search_g(s, q->goal) - *cost) < 1e-9 * (1 + *cost));
  }
  return rc;
}

/* n pairs of open cells of the 200 x 200 grid gr, drawn from seed. */
static void open_pairs(const astar_grid *gr, uint32_t seed, int32_t n, int32_t *starts,
                       int32_t *goals) {
  int32_t k = 0;
  while (k < n) {
    int32_t a, b;
    seed = seed * 1103515245u + 12345u;
    a = (int32_t)((seed >> 8) % 40000u);
    seed = seed * 1103515245u + 12345u;
    b = (int32_t)((seed >> 8) % 40000u);
    if (astar_grid_blocked(gr, a % 200, a / 200) || astar_grid_blocked(gr, b % 200, b / 200)) continue;
    starts[k] = a;
    goals[k++] = b;
  }
}

/* Out of memory at every allocation a search makes, its extras included
** (the last of the nq queries, starts[first + k * stride] to the goal of
** the same index, has a callback heuristic): ENOMEM from begin or step,
** never a wrong answer (ref answers each by A*), and the same search then
** answers right; some budget runs out inside a step. */
static void oom_sweep(astar_topology *t, astar_search *ref, const int32_t *starts,
                      const int32_t *goals, int nq, int first, int stride, int algorithm,
                      int32_t *w) {
  astar_query q;
  double cost = 0, rcost = 0;
  long budget;
  int done = 0, mid = 0;
  for (budget = 0; !done && budget < 400; budget++) {
    astar_search *f;
    int k, rc, rr;
    sparse_left = budget;
    f = astar_search_new(sparse_alloc, NULL);
    if (f == NULL) continue;
    done = 1;
    for (k = 0; k < nq; k++) {
      astar_query_init(&q, starts[first + k * stride], goals[first + k * stride]);
      q.algorithm = ASTAR_ALGO_ASTAR;
      rr = sparse_run(ref, t, &q, &rcost); /* ref's allocator never fails */
      q.algorithm = algorithm;
      if (k == nq - 1) {
        q.heuristic = ASTAR_H_CALLBACK;
        q.heuristic_fn = sparse_octile;
        q.heuristic_ctx = w;
      }
      rc = astar_search_begin(f, t, &q);
      if (rc == ASTAR_OK) {
        rc = astar_search_step(f, 0);
        if (rc == ASTAR_ENOMEM) mid = 1;
      }
      CHECK(rc == rr || rc == ASTAR_ENOMEM);
      if (rc == ASTAR_FOUND) {
        CHECK(fabs(astar_search_g(f, q.goal) - rcost) < 1e-9 * rcost);
      } else if (rc == ASTAR_ENOMEM) {
        done = 0;
        sparse_left = -1;
        CHECK(sparse_run(f, t, &q, &cost) == rr && (rr != ASTAR_FOUND || fabs(cost - rcost) < 1e-9 * rcost));
        sparse_left = 0;
      }
    }
    sparse_left = -1;
    astar_search_free(f);
  }
  CHECK(done && mid);
}

static void test_sparse_state(void) {
  astar_grid *big = astar_grid_new(2000, 2000, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_grid *gr = sparse_maze(NULL), *tiny = astar_grid_new(3, 3, ASTAR_DIAG_ALWAYS, NULL, NULL);
  astar_topology *t = astar_grid_topology(gr), *bt = astar_grid_topology(big);
  astar_search *s = astar_search_new(NULL, NULL), *only = astar_search_new(NULL, NULL);
  astar_search *ref = astar_search_new(NULL, NULL);
  astar_query q;
  double cost = 0, rcost = 0;
  uint32_t seed = 12345;
  int32_t starts[300], goals[300], w = 200, i, n = 0;
  size_t most = 0;
  /* a corner-to-corner jump point search of an open 2000 x 2000 grid owns a
  ** few nodes' state: no directory of the map's 62,500 pages (1 MB) */
  astar_query_init(&q, 0, 2000 * 2000 - 1);
  CHECK(sparse_run(s, bt, &q, &cost) == ASTAR_FOUND && fabs(cost - 1999 * ASTAR_GRID_DIAG) < 1e-6);
  CHECK(astar_search_jps(s) && astar_search_bytes(s) < 16 * 1024);
  /* the queries: pairs of open cells of the maze */
  n = 300;
  open_pairs(gr, seed, n, starts, goals);
  CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK);
  for (i = 0; i < n; i++) {
    int rs, rr;
    astar_query_init(&q, starts[i], goals[i]);
    q.algorithm = ASTAR_ALGO_ASTAR;
    rr = sparse_run(ref, t, &q, &rcost); /* a search of its own: dense state */
    /* the same search object serves jump point searches (scanned and
    ** precomputed), A* and grids of other sizes in turn */
    q.algorithm = i % 3 == 0 ? ASTAR_ALGO_JPS : i % 3 == 1 ? ASTAR_ALGO_JPS_PLUS : ASTAR_ALGO_ASTAR;
    if (i % 50 == 7) {
      astar_query tq;
      astar_query_init(&tq, 0, 8);
      CHECK(sparse_run(s, astar_grid_topology(tiny), &tq, &cost) == ASTAR_FOUND && cost == 2 * ASTAR_GRID_DIAG);
      astar_query_init(&tq, 2000 * 1000 + 3, 2000 * 1000 + 1990);
      CHECK(sparse_run(s, bt, &tq, &cost) == ASTAR_FOUND && cost == 1987);
    }
    rs = sparse_run(s, t, &q, &cost);
    CHECK(rs == rr && (rs != ASTAR_FOUND || fabs(cost - rcost) < 1e-9 * rcost));
    q.algorithm = ASTAR_ALGO_JPS;
    rs = sparse_run(only, t, &q, &cost);
    CHECK(rs == rr && (rs != ASTAR_FOUND || fabs(cost - rcost) < 1e-9 * rcost));
    if ((size_t)only->nslots > most) most = (size_t)only->nslots;
  }
  /* 300 jump point searches own what the largest of them needed (its
  ** slots: 16 bytes of table at most half full, 20 of state and 4 of node id
  ** each, and the pages' rounding), not a 1,280-byte page per region of the
  ** map that any of them touched */
  CHECK(most > 64 && astar_search_bytes(only) < 96 * most + 16 * 1024);
  /* stepped one expansion at a time: the same answer, the same count */
  {
    uint64_t full;
    astar_query_init(&q, starts[5], goals[5]);
    CHECK(sparse_run(only, t, &q, &cost) == ASTAR_FOUND);
    full = astar_search_stats(only)->expanded;
    CHECK(astar_search_begin(only, t, &q) == ASTAR_OK);
    for (i = 0; astar_search_step(only, 1) == ASTAR_SEARCHING; i++) continue;
    CHECK(astar_search_status(only) == ASTAR_FOUND && astar_search_stats(only)->expanded == full);
    CHECK(fabs(astar_search_g(only, q.goal) - cost) < 1e-9 * cost);
    /* a budget; a partial jump point search ends at a reached jump point */
    q.max_expansions = full > 2 ? full - 2 : 1;
    CHECK(sparse_run(only, t, &q, &rcost) == ASTAR_MAX_EXPANSIONS);
    q.track_best = 1;
    q.algorithm = ASTAR_ALGO_JPS;
    CHECK(sparse_run(only, t, &q, &rcost) == ASTAR_MAX_EXPANSIONS);
    CHECK(astar_search_best(only) >= 0 && astar_search_g(only, astar_search_best(only)) >= 0);
    /* trace: each jump point's parent was expanded before it */
    astar_query_init(&q, starts[5], goals[5]);
    q.record_trace = 1;
    CHECK(sparse_run(only, t, &q, &rcost) == ASTAR_FOUND && rcost == cost);
    {
      size_t nt, j, k;
      const astar_trace_entry *tr = astar_search_trace(only, &nt);
      CHECK(nt == full && tr[0].parent == -1);
      for (j = 1; j < nt; j++) {
        int seen = 0;
        for (k = 0; k < j; k++) seen |= tr[k].node == tr[j].parent;
        CHECK(seen && tr[j].g == astar_search_g(only, tr[j].node));
      }
    }
  }
  /* across the generation's wrap: old slot entries are empty, every time */
  only->gen = UINT32_MAX - 2;
  for (i = 0; i < 6; i++) {
    astar_query_init(&q, starts[i], goals[i]);
    q.algorithm = ASTAR_ALGO_ASTAR;
    CHECK(sparse_run(ref, t, &q, &rcost) == ASTAR_FOUND);
    q.algorithm = ASTAR_ALGO_JPS;
    CHECK(sparse_run(only, t, &q, &cost) == ASTAR_FOUND && fabs(cost - rcost) < 1e-9 * rcost);
    astar_query_init(&q, 2000 * 5 + 10, 2000 * 5 + 20); /* ten cells of a row */
    CHECK(sparse_run(only, bt, &q, &cost) == ASTAR_FOUND && cost == 10);
    CHECK(astar_search_g(only, 0) == -1 && astar_search_g(only, 2000 * 2000 - 1) == -1);
  }
  CHECK(only->gen < 20);
  /* out of memory at every allocation (oom_sweep) */
  oom_sweep(t, ref, starts, goals, 4, 1, 7, ASTAR_ALGO_JPS, &w);
  astar_search_free(s);
  astar_search_free(only);
  astar_search_free(ref);
  astar_grid_free(big);
  astar_grid_free(gr);
  astar_grid_free(tiny);
}

/* ------------------------------------------------------------------------ */

/* The precomputed mode's lazy open list (engine.h's HEAP_LAZY): a node's
** state says only whether it is open (engine.h's POS_OPEN), never a heap
** position; a cheaper offer pushes a second item and the first, stale, is
** skipped at the top. */
#define LAZY_POS_OPEN (-4) /* engine.h's POS_OPEN */
static int32_t lazy_pos(const astar_search *s, int32_t k) {
  return s->slots[k].n.pos; /* the lazy heap keeps sparse state: the entry */
}

/* Items of s's open list whose node is not open (stale); *dup: items of
** an open node that has another item too. */
static size_t lazy_stale(const astar_search *s, size_t *dup) {
  size_t i, j, n = 0, odd = 0;
  for (i = 0; i < s->open.n; i++) {
    int32_t pos = lazy_pos(s, s->open.a[i].node);
    odd += pos != LAZY_POS_OPEN && pos != -1 && pos != -2; /* never a position */
    if (pos != LAZY_POS_OPEN) n++;
    else
      for (j = 0; j < i; j++) *dup += s->open.a[j].node == s->open.a[i].node;
  }
  CHECK(odd == 0);
  return n;
}

/* 200 x 200, walls with gaps and a few scattered blocks: long straight
** runs (the table's "auto" takes it), and routes that meet. */
static astar_grid *lazy_map(void) {
  astar_grid *gr = astar_grid_new(200, 200, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  int32_t x, y;
  for (y = 0; y < 200; y++)
    for (x = 0; x < 200; x++)
      if ((x % 40 == 12 && y % 50 != 7 && y % 50 != 31) || (y % 60 == 20 && x % 70 > 9) ||
          (x * 7 + y * 13) % 89 == 0)
        CHECK(astar_grid_set_blocked(gr, x, y, 1) == ASTAR_OK);
  return gr;
}

static void test_lazy_heap(void) {
  astar_grid *gr = lazy_map(), *maze = sparse_maze(NULL);
  astar_topology *t = astar_grid_topology(gr);
  astar_search *s = astar_search_new(NULL, NULL), *ref = astar_search_new(NULL, NULL);
  astar_query q;
  uint32_t seed = 777;
  int32_t i, n = 0, w = 200, starts[60], goals[60];
  size_t stale = 0, dup = 0, handed = 0, handed_dup = 0;
  double rcost;
  n = 60;
  open_pairs(gr, seed, n, starts, goals);
  CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK && astar_grid_has_jumps(gr) == 2);
  /* a map of short runs keeps the indexed heap (stale items would be many) */
  CHECK(astar_grid_precompute_jumps(maze, 1) == ASTAR_OK && astar_grid_has_jumps(maze) == 1);
  astar_query_init(&q, 0, 200 * 200 - 1);
  q.algorithm = ASTAR_ALGO_JPS_PLUS;
  CHECK(astar_search_begin(s, astar_grid_topology(maze), &q) == ASTAR_OK && !s->lazy);
  for (i = 0; i < n; i++) {
    int rr, rc;
    astar_query_init(&q, starts[i], goals[i]);
    q.algorithm = ASTAR_ALGO_ASTAR;
    rr = sparse_run(ref, t, &q, &rcost);
    /* stepped one expansion at a time, the open list looked at each time */
    q.algorithm = ASTAR_ALGO_JPS_PLUS;
    q.record_trace = 1;
    CHECK(astar_search_begin(s, t, &q) == ASTAR_OK && s->lazy && s->sparse);
    while ((rc = astar_search_step(s, 1)) == ASTAR_SEARCHING) stale += lazy_stale(s, &dup);
    CHECK(rc == rr);
    if (rc == ASTAR_FOUND) {
      size_t nt, j, k, distinct = 0;
      const astar_trace_entry *tr = astar_search_trace(s, &nt);
      CHECK(fabs(astar_search_g(s, q.goal) - rcost) < 1e-9 * rcost);
      /* f never falls (a stale item would come back with an old key), and a
      ** node is expanded again only when it was reopened */
      for (j = 0; j < nt; j++) {
        int seen = 0;
        CHECK(j == 0 || tr[j].f >= tr[j - 1].f - 1e-9 * tr[j].f);
        for (k = 0; k < j; k++) seen |= tr[k].node == tr[j].node;
        distinct += !seen;
      }
      CHECK(nt == distinct + astar_search_stats(s)->reopened);
    }
    /* the table dropped between two steps: the query goes on as JPS, its
    ** open list an indexed heap (one item per open node, at its position) */
    q.record_trace = 0;
    CHECK(astar_search_begin(s, t, &q) == ASTAR_OK);
    for (rc = ASTAR_SEARCHING; rc == ASTAR_SEARCHING;) {
      size_t d = 0, st = lazy_stale(s, &d);
      if (st + d > 0 || astar_search_stats(s)->expanded > 40) break;
      rc = astar_search_step(s, 1);
    }
    if (rc == ASTAR_SEARCHING) {
      size_t d = 0, j;
      handed += lazy_stale(s, &d) > 0;
      handed_dup += d > 0;
      CHECK(astar_grid_precompute_jumps(gr, 0) == ASTAR_OK);
      rc = astar_search_step(s, 1);
      CHECK(!s->lazy);
      for (j = 0; j < s->open.n; j++) {
        CHECK(lazy_pos(s, s->open.a[j].node) == (int32_t)j);
        CHECK(j == 0 || s->open.a[(j - 1) / 2].fkey <= s->open.a[j].fkey);
      }
      if (rc == ASTAR_SEARCHING) rc = astar_search_step(s, 0);
      CHECK(rc == rr && (rc != ASTAR_FOUND ||
                         fabs(astar_search_g(s, q.goal) - rcost) < 1e-9 * rcost));
      CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK);
    }
  }
  CHECK(stale > 0 && dup > 0); /* both kinds were met, and skipped */
  CHECK(handed > 0 && handed_dup > 0);
  /* out of memory at every allocation of a jps+ search (its heap grows by
  ** the stale items too): ENOMEM, never a wrong answer, and then right */
  oom_sweep(t, ref, starts, goals, 6, 2, 9, ASTAR_ALGO_JPS_PLUS, &w);
  astar_search_free(s);
  astar_search_free(ref);
  astar_grid_free(gr);
  astar_grid_free(maze);
}

/* ------------------------------------------------------------------------ */
/* astar_grid_set_blocked_all: a map written at once                          */
/* ------------------------------------------------------------------------ */

static uint32_t bulk_seed = 2026u;
static uint32_t bulk_rand(void) {
  bulk_seed = bulk_seed * 1103515245u + 12345u;
  return bulk_seed >> 8;
}

static void bulk_map(unsigned char *m, int32_t n, unsigned percent) {
  int32_t i;
  for (i = 0; i < n; i++) m[i] = (unsigned char)(bulk_rand() % 100 < percent);
}

static astar_grid *bulk_new(int hex, int rule, int32_t w, int32_t h, astar_alloc_fn a) {
  return hex ? astar_hex_new(w, h, rule, a, NULL) : astar_grid_new(w, h, rule, a, NULL);
}

/* The map written cell by cell, as grids were loaded before. */
static void bulk_by_cell(astar_grid *gr, const unsigned char *m) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) astar_grid_set_blocked(gr, x, y, m[y * w + x]);
}

/* The same cells, move masks and bit sets, and the same components: each
** cell against its E and S neighbours and a random cell. */
static void bulk_same(astar_grid *a, astar_grid *b) {
  int32_t w = a->w, h = a->h, v, bad = 0;
  size_t n = (size_t)a->pw * (size_t)a->ph;
  astar_topology *ta = astar_grid_topology(a), *tb = astar_grid_topology(b);
  CHECK(memcmp(a->blocked, b->blocked, n) == 0);
  CHECK(memcmp(a->moves, b->moves, n) == 0);
  CHECK((a->rows == NULL) == (b->rows == NULL));
  if (a->rows && b->rows)
    CHECK(memcmp(a->rows, b->rows,
                 ((size_t)a->ph * (size_t)a->rs + (size_t)a->pw * (size_t)a->cs) * 8) == 0);
  for (v = 0; v < w * h; v++) {
    int32_t r = (int32_t)(bulk_rand() % (uint32_t)(w * h));
    if (astar_topology_connected(ta, v, r) != astar_topology_connected(tb, v, r)) bad++;
    if (v % w + 1 < w && astar_topology_connected(ta, v, v + 1) != astar_topology_connected(tb, v, v + 1))
      bad++;
    if (v + w < w * h && astar_topology_connected(ta, v, v + w) != astar_topology_connected(tb, v, v + w))
      bad++;
  }
  CHECK(bad == 0);
}

static void test_set_blocked_all(void) {
  static const int32_t sizes[][2] = {{1, 1}, {3, 70}, {37, 53}, {200, 130}, {300, 300},
                                     {2, 5},  {5, 2},  {3, 3}};
  static const unsigned dens[] = {10, 35, 45};
  unsigned char *m = (unsigned char *)malloc(300 * 300), *m2 = (unsigned char *)malloc(300 * 300);
  int hex, rule, si, di, i;
  for (hex = 0; hex < 2; hex++)
    for (rule = 0; rule < 4; rule++)
      for (si = 0; si < 8; si++)
        for (di = 0; di < 3; di++) {
          int32_t w = sizes[si][0], h = sizes[si][1], n = w * h, opened = 0;
          astar_grid *a, *b;
          astar_topology *tb;
          uint32_t v0;
          if (light && n == 300 * 300 && rule != 1) continue; /* no_corner_cutting, even-r */
          a = bulk_new(hex, rule, w, h, NULL), b = bulk_new(hex, rule, w, h, NULL);
          tb = astar_grid_topology(b);
          v0 = astar_topology_version(tb);
          if (di == 0) { /* a new grid's masks (filled, all open) as computed */
            astar_grid *c = bulk_new(hex, rule, w, h, NULL);
            size_t pn = (size_t)c->pw * (size_t)c->ph;
            memset(m, 1, (size_t)n);
            CHECK(astar_grid_set_blocked_all(c, m) == ASTAR_OK);
            memset(m, 0, (size_t)n);
            CHECK(astar_grid_set_blocked_all(c, m) == ASTAR_OK);
            CHECK(memcmp(c->moves, b->moves, pn) == 0 && memcmp(c->blocked, b->blocked, pn) == 0);
            CHECK((c->rows == NULL) == (hex != 0));
            if (c->rows)
              CHECK(memcmp(c->rows, b->rows,
                           ((size_t)c->ph * (size_t)c->rs + (size_t)c->pw * (size_t)c->cs) * 8) == 0);
            astar_grid_free(c);
          }
          bulk_map(m, n, dens[di]);
          for (i = 0; i < n; i++) opened += !m[i];
          bulk_by_cell(a, m);
          CHECK(astar_grid_set_blocked_all(b, m) == ASTAR_OK);
          /* one change, the labels built in the call: the questions after
          ** it relabel no sector */
          CHECK(astar_topology_version(tb) == v0 + (opened < n));
          CHECK(astar_topology_components_current(tb));
          CHECK(tb->comps.relabels == (opened < n) && tb->ops->conn->count(tb, 0) == 0);
          CHECK(tb->ops->conn->count(tb, 1) == (opened < n)); /* the sector graph, once */
          bulk_same(a, b);
          CHECK(tb->comps.relabels == (opened < n) && tb->ops->conn->count(tb, 0) == 0);
          CHECK(tb->ops->conn->count(tb, 1) == (opened < n));
          /* the same map again: nothing changes, not even the version */
          v0 = astar_topology_version(tb);
          CHECK(astar_grid_set_blocked_all(b, m) == ASTAR_OK && astar_topology_version(tb) == v0);
          /* edits after it: incremental as ever */
          for (i = 0; i < 60; i++) {
            int32_t c = (int32_t)(bulk_rand() % (uint32_t)n);
            int blk = (int)(bulk_rand() % 2);
            astar_grid_set_blocked(a, c % w, c / w, blk);
            astar_grid_set_blocked(b, c % w, c / w, blk);
          }
          bulk_same(a, b);
          /* a second map on a labelled grid */
          bulk_map(m2, n, dens[(di + 1) % 3]);
          bulk_by_cell(a, m2);
          CHECK(astar_grid_set_blocked_all(b, m2) == ASTAR_OK);
          CHECK(astar_topology_components_current(tb));
          bulk_same(a, b);
          astar_grid_free(a);
          astar_grid_free(b);
        }
  {
    /* derived layers: the jump table and the clearance repaired as a batch
    ** of set_blocked calls would, the change log holding every cell */
    int32_t w = 200, h = 130, n = w * h, x, y, changed = 0, bad = 0;
    astar_grid *c = astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
    astar_grid *d = astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
    astar_topology *tc = astar_grid_topology(c);
    const int8_t *jc, *jd;
    size_t nc, nd, got = 0;
    int32_t *cells = (int32_t *)malloc((size_t)n * sizeof *cells);
    uint32_t v0;
    bulk_map(m, n, 30);
    bulk_map(m2, n, 30);
    CHECK(astar_grid_set_blocked_all(c, m) == ASTAR_OK);
    CHECK(astar_grid_precompute_jumps(c, 1) == ASTAR_OK);
    CHECK(astar_grid_clearance(c, 0, 0) >= 0);
    CHECK(astar_grid_track_changes(c, (size_t)n) == ASTAR_OK);
    v0 = astar_topology_version(tc);
    CHECK(astar_grid_set_blocked_all(c, m2) == ASTAR_OK);
    CHECK(astar_topology_version(tc) == v0 + 1);
    CHECK(astar_topology_components_current(tc));
    for (i = 0; i < n; i++) changed += m[i] != m2[i];
    CHECK(astar_grid_changes(c, v0, cells, (size_t)n, &got) == ASTAR_OK && got == (size_t)changed);
    for (i = 0; i < (int)got; i++) bad += m[cells[i]] == m2[cells[i]];
    CHECK(bad == 0);
    CHECK(astar_grid_set_blocked_all(d, m2) == ASTAR_OK);
    CHECK(astar_grid_precompute_jumps(d, 1) == ASTAR_OK);
    jc = astar_grid_jump_table(c, &nc);
    jd = astar_grid_jump_table(d, &nd);
    CHECK(jc && jd && nc == nd && memcmp(jc, jd, nc) == 0);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) bad += astar_grid_clearance(c, x, y) != astar_grid_clearance(d, x, y);
    CHECK(bad == 0);
    bulk_same(c, d);
    /* refused while locked, and with no map: the grid as it was */
    v0 = astar_topology_version(tc);
    astar_topology_lock(tc, 1);
    CHECK(astar_grid_set_blocked_all(c, m) == ASTAR_EBUSY);
    astar_topology_lock(tc, -1);
    CHECK(astar_grid_set_blocked_all(c, NULL) == ASTAR_EINVAL);
    CHECK(astar_topology_version(tc) == v0 && memcmp(c->blocked, d->blocked, (size_t)c->pw * c->ph) == 0);
    free(cells);
    astar_grid_free(c);
    astar_grid_free(d);
  }
  {
    /* out of memory for the labels: the cells written all the same, the
    ** next question builds them, never a wrong answer */
    long budget;
    int deferred = 0, built = 0;
    int32_t w = 120, h = 90;
    astar_grid *ref = astar_grid_new(w, h, ASTAR_DIAG_ONE_OBSTACLE, NULL, NULL);
    bulk_map(m, w * h, 40);
    bulk_by_cell(ref, m);
    for (budget = 0; budget < 40 && !built; budget++) {
      astar_grid *g = astar_grid_new(w, h, ASTAR_DIAG_ONE_OBSTACLE, sparse_alloc, NULL);
      astar_topology *tg = astar_grid_topology(g);
      sparse_left = budget;
      CHECK(astar_grid_set_blocked_all(g, m) == ASTAR_OK);
      if (astar_topology_components_current(tg)) built = 1;
      else deferred = 1;
      sparse_left = -1;
      bulk_same(ref, g);
      CHECK(astar_topology_components_current(tg));
      astar_grid_free(g);
    }
    CHECK(deferred && built);
    astar_grid_free(ref);
  }
  free(m);
  free(m2);
}

/* ------------------------------------------------------------------------ */

/* The open list's pop order (engine.h's heap_pop: the smaller child chosen
** by arithmetic, two levels a step, a sentinel past the last item): on
** random graphs whose path costs all differ, Dijkstra's expansion order is
** one order whatever the heap's shape, so the search's trace must be a
** plain O(n^2) Dijkstra's, node for node and g for g -- with decrease-keys
** (the indexed heap's positions), with stop = "optimal" (the by-g heap
** too), and with open lists of hundreds of items (every depth of the
** descent, odd and even sizes). */
#define HO_N 700
static void heap_order_case(unsigned seed, int deg, int stop) {
  astar_graph *g = astar_graph_new(NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL);
  static double cost[HO_N * 8], dist[HO_N];
  static int32_t to[HO_N * 8], order[HO_N];
  static char done[HO_N];
  const astar_trace_entry *t;
  astar_query q;
  int32_t id, i, j, n = 0, ne = 0;
  size_t nt = 0;
  unsigned r = seed;
  for (i = 0; i < HO_N; i++) astar_graph_add_node(g, 0, 0, 0, &id);
  for (i = 0; i < HO_N; i++)
    for (j = 0; j < deg; j++) {
      r = r * 1103515245u + 12345u;
      to[ne] = (int32_t)((r >> 8) % HO_N);
      r = r * 1103515245u + 12345u;
      cost[ne] = 1.0 + (double)((r >> 8) & 0xffffu) / 65536.0 + (double)ne * 1e-9;
      CHECK(astar_graph_add_edge(g, i, to[ne], cost[ne], 0, &id) == ASTAR_OK);
      ne++;
    }
  for (i = 0; i < HO_N; i++) dist[i] = HUGE_VAL, done[i] = 0;
  dist[0] = 0;
  for (;;) { /* the reference: the least open distance, closed once */
    int32_t u = -1;
    for (i = 0; i < HO_N; i++)
      if (!done[i] && dist[i] < HUGE_VAL && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    order[n++] = u;
    for (j = 0; j < deg; j++) {
      double d = dist[u] + cost[u * deg + j];
      if (d < dist[to[u * deg + j]]) dist[to[u * deg + j]] = d;
    }
  }
  astar_query_init(&q, 0, order[n - 1]); /* the farthest node: every node */
  q.heuristic = ASTAR_H_ZERO;
  q.stop = stop;
  q.record_trace = 1;
  CHECK(astar_search_begin(s, astar_graph_topology(g), &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  t = astar_search_trace(s, &nt);
  /* stop = "expand" takes the goal last; "optimal" stops once no open g is
  ** below the goal's, the goal or the last few nodes before it unexpanded */
  CHECK(stop == ASTAR_STOP_EXPAND ? nt == (size_t)n : nt + 8 >= (size_t)n && nt <= (size_t)n);
  for (i = 0; i < n && (size_t)i < nt; i++) {
    CHECK(t[i].node == order[i]);
    CHECK(t[i].g == dist[order[i]]);
  }
  astar_search_free(s);
  astar_graph_free(g);
}

static void test_heap_order(void) {
  unsigned seed;
  for (seed = 1; seed <= 6; seed++) {
    heap_order_case(seed, 2 + (int)seed % 3 * 3, ASTAR_STOP_EXPAND);
    heap_order_case(seed * 7919u, 3, ASTAR_STOP_OPTIMAL);
  }
}

/* ------------------------------------------------------------------------ */

/* The slot table grows inside a query (256 entries first, then twice as
** many each time it is half full): the growth renames every state index
** the search holds -- the open heap's items, the by-g heap's (stop =
** optimal), the bypass slot, the node being expanded -- and moves the
** extras with their entries (a callback heuristic's cache, by-g
** positions).  A fresh search stepped one expansion at a time through
** several growths answers as dense A* does, expands as many nodes as one
** unstepped run, and its trace agrees with its g values. */
static void test_slot_growth(void) {
  astar_grid *gr = astar_grid_new(300, 300, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_topology *t = astar_grid_topology(gr);
  astar_search *ref = astar_search_new(NULL, NULL);
  uint32_t seed = 777;
  int32_t x, y, w = 300, pair, variant, grown_total = 0;
  for (y = 0; y < 300; y++)
    for (x = 0; x < 300; x++) {
      seed = seed * 1103515245u + 12345u;
      if ((seed >> 8) % 100u < 22u && !(x < 2 && y < 2) && !(x > 297 && y > 297))
        CHECK(astar_grid_set_blocked(gr, x, y, 1) == ASTAR_OK);
    }
  for (pair = 0; pair < 3; pair++) {
    astar_query q;
    double rcost = 0, cost = 0;
    int32_t a = pair == 0 ? 0 : pair == 1 ? 299 : 150 * w, b = pair == 0 ? 300 * 300 - 1 : pair == 1 ? 299 * w : 150 * w + 299;
    if (astar_grid_blocked(gr, a % w, a / w) || astar_grid_blocked(gr, b % w, b / w)) continue;
    astar_query_init(&q, a, b);
    q.algorithm = ASTAR_ALGO_ASTAR;
    if (sparse_run(ref, t, &q, &rcost) != ASTAR_FOUND) continue;
    for (variant = 0; variant < 3; variant++) {
      astar_search *f = astar_search_new(NULL, NULL), *g1 = astar_search_new(NULL, NULL);
      size_t cap = 0, nt, j, k;
      int grows = 0, rc;
      uint64_t full;
      astar_query_init(&q, a, b);
      q.algorithm = ASTAR_ALGO_JPS;
      if (variant >= 1) {
        q.heuristic = ASTAR_H_CALLBACK;
        q.heuristic_fn = sparse_octile;
        q.heuristic_ctx = &w;
        q.record_trace = 1;
      }
      if (variant == 2) q.stop = ASTAR_STOP_OPTIMAL;
      CHECK(sparse_run(g1, t, &q, &cost) == ASTAR_FOUND && fabs(cost - rcost) < 1e-9 * rcost);
      full = astar_search_stats(g1)->expanded;
      CHECK(astar_search_begin(f, t, &q) == ASTAR_OK);
      cap = f->slots_cap;
      while ((rc = astar_search_step(f, 1)) == ASTAR_SEARCHING) {
        if (f->slots_cap != cap) {
          grows++;
          cap = f->slots_cap;
        }
        if (q.record_trace) { /* the node just expanded (its state read without a probe) */
          const astar_trace_entry *tr = astar_search_trace(f, &nt);
          CHECK(nt > 0 && astar_search_g(f, tr[nt - 1].node) == tr[nt - 1].g &&
                astar_search_parent(f, tr[nt - 1].node) == tr[nt - 1].parent);
        }
      }
      CHECK(rc == ASTAR_FOUND && astar_search_stats(f)->expanded == full);
      CHECK(grows >= 2 && f->nslots > 512);
      grown_total += grows;
      CHECK(fabs(astar_search_g(f, b) - rcost) < 1e-9 * rcost);
      {
        int32_t nodes[4096];
        int32_t len = astar_search_path(f, b, nodes, NULL, &cost);
        CHECK(len > 0 && len <= 4096 && nodes[0] == a && nodes[len - 1] == b &&
              fabs(cost - rcost) < 1e-9 * rcost);
      }
      if (q.record_trace) {
        const astar_trace_entry *tr = astar_search_trace(f, &nt);
        CHECK(nt == full && tr[0].parent == -1);
        for (j = 1; j < nt; j++) {
          int seen = 0;
          for (k = 0; k < j && !seen; k++) seen = tr[k].node == tr[j].parent;
          CHECK(seen && tr[j].g == astar_search_g(f, tr[j].node));
        }
      }
      astar_search_free(f);
      astar_search_free(g1);
    }
  }
  CHECK(grown_total >= 12);
  astar_search_free(ref);
  astar_grid_free(gr);
}

/* The lines' stop bits (stopbits.c) kept by every edit: on grids of one
** and of several words a line, after random single edits (set_blocked),
** edits in a batch and whole maps (set_blocked_all), every stop bit of
** every row and column, both directions, equals its definition read from
** the blocked cells: a scan toward higher positions stops at a blocked cell
** or where a cell beside it is open while the one before that is blocked
** (toward lower positions, the one after); the border lines all stop. */
static int stop_open(const astar_grid *gr, int32_t x, int32_t y) { /* padded, any */
  return x >= 0 && y >= 0 && x < gr->pw && y < gr->ph && !gr->blocked[y * gr->pw + x];
}

static int stop_bits_wrong(const astar_grid *gr) {
  int32_t l, j, wrong = 0, o;
  for (o = 0; o < 2; o++) { /* rows, then columns */
    int32_t n = o ? gr->pw : gr->ph, words = o ? gr->cw : gr->rw;
    const uint64_t *base = o ? gr->cols : gr->rows;
    for (l = 0; l < n; l++)
      for (j = 0; j < words * 64; j++) {
        int up, dn, k;
        const uint64_t *m = base + (size_t)l * (size_t)(3 * words); /* rs, cs */
#define OPEN_AT(i, side) (o ? stop_open(gr, l + (side), (i)) : stop_open(gr, (i), l + (side)))
        up = dn = l == 0 || l == n - 1 || !OPEN_AT(j, 0);
        for (k = -1; k <= 1; k += 2) {
          up |= OPEN_AT(j, k) && !OPEN_AT(j - 1, k);
          dn |= OPEN_AT(j, k) && !OPEN_AT(j + 1, k);
        }
        wrong += (int)(m[LAT_UP_W(j >> 6)] >> (j & 63) & 1) != up;
        wrong += (int)(m[LAT_DOWN_W(j >> 6)] >> (j & 63) & 1) != dn;
        wrong += (int)(m[LAT_OPEN_W(j >> 6)] >> (j & 63) & 1) != OPEN_AT(j, 0);
#undef OPEN_AT
      }
  }
  return wrong;
}

static void test_stop_bits(void) {
  static const int32_t dims[6][2] = {{1, 1}, {5, 3}, {70, 9}, {9, 130}, {62, 62}, {140, 75}};
  unsigned r = 777u;
  int t, e, rule;
  for (t = 0; t < 6; t++)
    for (rule = 0; rule < 2; rule++) {
      int32_t w = dims[t][0], h = dims[t][1], i;
      astar_grid *gr = astar_grid_new(w, h, rule ? ASTAR_DIAG_NEVER : ASTAR_DIAG_NO_CORNER_CUTTING,
                                      NULL, NULL);
      unsigned char *m = (unsigned char *)malloc((size_t)(w * h));
      CHECK(gr != NULL && m != NULL);
      if (gr == NULL || m == NULL) {
        free(m);
        astar_grid_free(gr);
        continue;
      }
      CHECK(gr->rows != NULL && stop_bits_wrong(gr) == 0);
      for (e = 0; e < 3000; e++) { /* single edits, denser then sparser */
        int32_t c = (int32_t)((r = r * 1103515245u + 12345u) >> 8) % (w * h);
        astar_grid_set_blocked(gr, c % w, c / w, (int)(r >> 4) % 100 < (e < 1500 ? 60 : 20));
        if (e % 500 == 499) CHECK(stop_bits_wrong(gr) == 0);
      }
      astar_grid_edits_begin(gr); /* a batch */
      for (e = 0; e < 400; e++) {
        int32_t c = (int32_t)((r = r * 1103515245u + 12345u) >> 8) % (w * h);
        astar_grid_set_blocked(gr, c % w, c / w, (int)(r >> 4) & 1);
      }
      astar_grid_edits_end(gr);
      CHECK(stop_bits_wrong(gr) == 0);
      for (i = 0; i < w * h; i++) m[i] = (unsigned char)(((r = r * 1103515245u + 12345u) >> 12) % 3 == 0);
      CHECK(astar_grid_set_blocked_all(gr, m) == ASTAR_OK && stop_bits_wrong(gr) == 0);
      free(m);
      astar_grid_free(gr);
    }
}

/* A lattice's externals op (a path's cells to cell ids, following the
** row) against external() on any sequence: steps, jumps, both shapes. */
static void test_path_externals(void) {
  unsigned r = 12345u;
  int t, i;
  for (t = 0; t < 200; t++) {
    int32_t w = 1 + (int32_t)((r = r * 1103515245u + 12345u) >> 16) % 40;
    int32_t h = 1 + (int32_t)((r = r * 1103515245u + 12345u) >> 16) % 40, n = 1 + t % 50;
    astar_grid *gr = t % 2 ? astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL)
                           : astar_hex_new(w, h, ASTAR_HEX_ODD_R, NULL, NULL);
    astar_topology *tp = astar_grid_topology(gr);
    int32_t ids[50] = {0}, want[50] = {0}, c = 0;
    for (i = 0; i < n; i++) { /* a walk of steps, with a jump every seventh */
      int32_t x = c % w, y = c / w;
      r = r * 1103515245u + 12345u;
      if (i % 7 == 6) c = (int32_t)(r >> 8) % (w * h);
      else {
        x += (int32_t)(r >> 16) % 3 - 1, y += (int32_t)(r >> 20) % 3 - 1;
        if (x >= 0 && x < w && y >= 0 && y < h) c = y * w + x;
      }
      want[i] = c;
      ids[i] = tp->ops->internal(tp, c);
    }
    tp->ops->externals(tp, ids, n);
    for (i = 0; i < n; i++) CHECK(ids[i] == want[i]);
    astar_grid_free(gr);
  }
}

/* Jump point search's g along long diagonal runs (jps.c's diag_run sums a
** run's cost step by step): on a 200x200 grid with scattered walls, every
** jump point the search expands has as its g its parent's g plus the jump's
** cost (diagonal first, then straight), to the bit, and a query to it (the
** plain loop: no trace) costs A*'s, to the bit. */
/* The online jump point search pinned query by query (issue 19's pass on
** its expansion: the scans, the diagonal step, the open list): on random
** grids of several densities and shapes (rows and columns of one word and
** of many, long open runs, a grid wide enough for bounded scans,
** 4-connected), each query's trace (node, parent, g, in order) hashed, and
** the fast path's (no trace) expansions, generated count and path cells
** equal to the traced run's; every cost A*'s to the bit.  The hash and
** totals are main's at 432df3c: a change to what the search expands, in
** what order, or with what parents or g, fails here.  One change since, in
** the order among exact ties only (equal f and equal h, which the heap's
** shape orders): the bypass slot that loses to the heap's top takes the
** top's place and sinks instead of a pop and a push (engine.h), so the
** heap's shape differs; 287,026 expansions, 479,366 generated and
** 0x73427a8c before it (traces with fifo ties, whose keys are unique, are
** the same). */
static void test_jps_online_pin(void) {
  static const struct {
    int32_t w, h, pct, rule, blocks;
  } grids[6] = {{41, 33, 12, 0, 0},   {150, 90, 20, 0, 0},   {200, 130, 4, 0, 1},
                {900, 40, 6, 0, 0},   {120, 70, 25, 1, 0},   {97, 300, 35, 0, 1}};
  static int32_t nodes[65536], pnodes[65536];
  astar_search *s = astar_search_new(NULL, NULL), *a = astar_search_new(NULL, NULL);
  uint32_t seed = 1919u, hash = 2166136261u;
  uint64_t exps = 0, gens = 0;
  int gi, i, found = 0;
  for (gi = 0; gi < 6; gi++) {
    int32_t w = grids[gi].w, h = grids[gi].h, x, y;
    astar_grid *gr = astar_grid_new(w, h, grids[gi].rule ? ASTAR_DIAG_NEVER : ASTAR_DIAG_NO_CORNER_CUTTING,
                                    NULL, NULL);
    scatter_walls(gr, w, h, &seed, (uint32_t)grids[gi].pct);
    if (grids[gi].blocks) /* rectangles: long runs beside walls */
      for (i = 0; i < 40; i++) {
        int32_t bx, by, bw, bh;
        seed = seed * 1103515245u + 12345u;
        bx = (int32_t)((seed >> 8) % (uint32_t)w), by = (int32_t)((seed >> 4) % (uint32_t)h);
        bw = 1 + (int32_t)((seed >> 20) % 30u), bh = 1 + (int32_t)((seed >> 26) % 20u);
        for (y = by; y < by + bh && y < h; y++)
          for (x = bx; x < bx + bw && x < w; x++) CHECK(astar_grid_set_blocked(gr, x, y, 1) == ASTAR_OK);
      }
    for (i = 0; i < 300; i++) {
      int32_t st, go, n, pn, k;
      astar_query q;
      int rc, prc;
      uint64_t e, gn;
      double c, pc, ac;
      size_t nt;
      const astar_trace_entry *t;
      seed = seed * 1103515245u + 12345u;
      st = (int32_t)((seed >> 4) % (uint32_t)(w * h));
      seed = seed * 1103515245u + 12345u;
      go = (int32_t)((seed >> 4) % (uint32_t)(w * h));
      if (astar_grid_blocked(gr, st % w, st / w) || astar_grid_blocked(gr, go % w, go / w)) continue;
      astar_query_init(&q, st, go);
      q.algorithm = ASTAR_ALGO_JPS;
      q.record_trace = 1;
      CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
      rc = astar_search_step(s, 0);
      e = astar_search_stats(s)->expanded;
      gn = astar_search_stats(s)->generated;
      t = astar_search_trace(s, &nt);
      CHECK(nt == e);
      hash = trace_hash(hash, t, nt);
      n = rc == ASTAR_FOUND ? astar_search_path(s, go, nodes, NULL, &c) : 0;
      q.record_trace = 0; /* the fast path: the same search */
      CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK);
      prc = astar_search_step(s, 0);
      CHECK(prc == rc && astar_search_stats(s)->expanded == e && astar_search_stats(s)->generated == gn);
      pn = prc == ASTAR_FOUND ? astar_search_path(s, go, pnodes, NULL, &pc) : 0;
      CHECK(pn == n);
      for (k = 0; k < n && k < pn; k++) {
        CHECK(pnodes[k] == nodes[k]);
        hash = (hash ^ (uint32_t)nodes[k]) * 16777619u;
      }
      q.algorithm = ASTAR_ALGO_ASTAR;
      CHECK(astar_search_begin(a, astar_grid_topology(gr), &q) == ASTAR_OK);
      CHECK(astar_search_step(a, 0) == rc);
      if (rc == ASTAR_FOUND) {
        CHECK(astar_search_path(a, go, pnodes, NULL, &ac) > 0 && ac == c && pc == c);
        found++;
      }
      exps += e;
      gens += gn;
    }
    astar_grid_free(gr);
  }
  CHECK(found == 1122 && exps == 287040 && gens == 479411 && hash == 0x27cfcffau);
  astar_search_free(a);
  astar_search_free(s);
}

static void test_jps_diagonal_g(void) {
  astar_grid *gr = astar_grid_new(200, 200, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL), *a = astar_search_new(NULL, NULL);
  astar_query q, qa;
  const astar_trace_entry *t;
  size_t n, i, far = 0;
  uint32_t r = 12345;
  int32_t x, y, nodes[1024];
  double cost, acost;
  for (y = 0; y < 200; y++)
    for (x = 0; x < 200; x++) {
      r = r * 1103515245u + 12345u;
      if ((r >> 16) % 100 < 3 && x + y > 4 && x + y < 390)
        CHECK(astar_grid_set_blocked(gr, x, y, 1) == ASTAR_OK);
    }
  astar_query_init(&q, 1 * 200 + 1, 190 * 200 + 198);
  q.record_trace = 1;
  CHECK(astar_search_begin(s, astar_grid_topology(gr), &q) == ASTAR_OK && astar_search_jps(s));
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  t = astar_search_trace(s, &n);
  CHECK(n > 20);
  for (i = 0; i < n && i < 120; i++) {
    int32_t v = t[i].node, u = t[i].parent, dx, dy, nd;
    size_t k;
    double pg = 0;
    if (u >= 0) {
      for (k = 0; k < i && t[k].node != u; k++) continue;
      CHECK(k < i);
      pg = k < i ? t[k].g : -1;
      dx = abs(v % 200 - u % 200), dy = abs(v / 200 - u / 200), nd = dx < dy ? dx : dy;
      if (nd > 20) far++;
      CHECK(t[i].g == pg + nd * ASTAR_GRID_DIAG + (dx > dy ? dx - nd : dy - nd)); /* to the bit */
    }
    astar_query_init(&qa, q.start, v);
    qa.algorithm = ASTAR_ALGO_ASTAR;
    CHECK(astar_search_begin(a, astar_grid_topology(gr), &qa) == ASTAR_OK);
    CHECK(astar_search_step(a, 0) == ASTAR_FOUND);
    CHECK(astar_search_path(a, v, nodes, NULL, &acost) > 0);
    astar_query_init(&qa, q.start, v);
    CHECK(astar_search_begin(a, astar_grid_topology(gr), &qa) == ASTAR_OK && astar_search_jps(a));
    CHECK(astar_search_step(a, 0) == ASTAR_FOUND);
    CHECK(astar_search_path(a, v, nodes, NULL, &cost) > 0 && cost == acost);
  }
  CHECK(far > 5); /* jumps with long diagonal runs */
  astar_search_free(s);
  astar_search_free(a);
  astar_grid_free(gr);
}

/* An allocator that counts live bytes and fails once `fail_in` reaches 0
** (astar_search_path_fill's growth). */
typedef struct fill_mem {
  long live;
  int fail_in; /* allocations left before one fails (-1: never) */
} fill_mem;

static void *fill_alloc(void *ud, void *p, size_t osize, size_t nsize) {
  fill_mem *m = (fill_mem *)ud;
  void *r;
  if (p == NULL) osize = 0;
  if (nsize == 0) {
    free(p);
    m->live -= (long)osize;
    return NULL;
  }
  if (m->fail_in == 0) return NULL;
  if (m->fail_in > 0) m->fail_in--;
  r = realloc(p, nsize);
  if (r != NULL) m->live += (long)nsize - (long)osize;
  return r;
}

/* A caller's growable path: the arrays astar_search_path_fill grows. */
typedef struct fill_buf {
  int32_t *nodes, *links;
  size_t ncap, lcap;
  int want_links;
} fill_buf;

static void fill_free(fill_mem *m, fill_buf *b) {
  if (b->nodes) fill_alloc(m, b->nodes, b->ncap * sizeof(int32_t), 0);
  if (b->links) fill_alloc(m, b->links, b->lcap * sizeof(int32_t), 0);
  memset(b, 0, sizeof *b);
}

/* One found search's path both ways: astar_search_path into arrays sized
** by astar_search_path_length, and astar_search_path_fill into b (with or
** without links); same length, nodes, links and cost to the bit. */
static void fill_compare(astar_search *s, int32_t to, fill_mem *m, fill_buf *b) {
  int32_t len = astar_search_path_length(s, to), n = -1, i;
  int32_t *nodes = (int32_t *)malloc((size_t)(len + 1) * sizeof(int32_t));
  int32_t *links = (int32_t *)malloc((size_t)(len + 1) * sizeof(int32_t));
  double cost = -1, fcost = -2;
  CHECK(len >= 1 && nodes != NULL && links != NULL);
  if (nodes == NULL || links == NULL) return;
  CHECK(astar_search_path(s, to, nodes, links, &cost) == len);
  CHECK(astar_search_path_fill(s, to, fill_alloc, m, &b->nodes, &b->ncap,
                               b->want_links ? &b->links : NULL, &b->lcap, &n,
                               &fcost) == ASTAR_OK);
  CHECK(n == len && fcost == cost && b->ncap >= (size_t)n);
  for (i = 0; i < len && i < n; i++) CHECK(b->nodes[i] == nodes[i]);
  if (b->want_links) {
    CHECK(len < 2 || b->lcap >= (size_t)len - 1);
    for (i = 0; i + 1 < len && i + 1 < n; i++) CHECK(b->links[i] == links[i]);
  } else {
    CHECK(b->links == NULL && b->lcap == 0);
  }
  free(nodes);
  free(links);
}

/* astar_search_path_fill agrees with astar_search_path on random grids
** (square: A*, JPS, JPS+; hex: A*; partial paths) and on graphs, whether
** the arrays start empty, small or large; it writes nothing for a node not
** reached or after a reverse search; a failed growth leaves the arrays
** valid (ENOMEM, length 0) and the next fill with memory succeeds; every
** byte comes back. */
static void test_path_fill(void) {
  static const int algos[] = {ASTAR_ALGO_ASTAR, ASTAR_ALGO_JPS, ASTAR_ALGO_JPS_PLUS};
  unsigned r = 4242u;
  fill_mem mem = {0, -1};
  fill_buf kept = {NULL, NULL, 0, 0, 1}, nolinks = {NULL, NULL, 0, 0, 0};
  astar_search *s = astar_search_new(NULL, NULL);
  int t, a, found = 0, jps_found = 0;
  for (t = 0; t < 120; t++) {
    int hex = t % 4 == 3;
    int32_t w = 2 + (int32_t)((r = r * 1103515245u + 12345u) >> 16) % 60;
    int32_t h = 2 + (int32_t)((r = r * 1103515245u + 12345u) >> 16) % 60, i;
    astar_grid *gr = hex ? astar_hex_new(w, h, ASTAR_HEX_ODD_R, NULL, NULL)
                         : astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
    astar_topology *tp = astar_grid_topology(gr);
    for (i = 0; i < w * h / 5; i++) {
      r = r * 1103515245u + 12345u;
      astar_grid_set_blocked(gr, (int32_t)(r >> 8) % w, (int32_t)(r >> 18) % h, 1);
    }
    astar_grid_set_blocked(gr, 0, 0, 0);
    astar_grid_set_blocked(gr, w - 1, h - 1, 0);
    if (!hex) CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK);
    for (a = 0; a < (hex ? 1 : 3); a++) {
      astar_query q;
      int rc;
      astar_query_init(&q, 0, w * h - 1);
      q.algorithm = algos[a];
      q.track_best = algos[a] == ASTAR_ALGO_ASTAR; /* JPS refuses it */
      CHECK(astar_search_begin(s, tp, &q) == ASTAR_OK);
      rc = astar_search_step(s, 0);
      CHECK(rc == ASTAR_FOUND || rc == ASTAR_UNREACHABLE);
      if (rc == ASTAR_FOUND) {
        fill_buf fresh = {NULL, NULL, 0, 0, 1}, small = {NULL, NULL, 3, 2, 1};
        found++;
        if (astar_search_jps(s)) jps_found++;
        fill_compare(s, q.goal, &mem, &kept);    /* kept across queries */
        fill_compare(s, q.goal, &mem, &nolinks); /* links not wanted */
        fill_compare(s, q.goal, &mem, &fresh);   /* grown from nothing */
        fill_free(&mem, &fresh);
        small.nodes = (int32_t *)fill_alloc(&mem, NULL, 0, 3 * sizeof(int32_t));
        small.links = (int32_t *)fill_alloc(&mem, NULL, 0, 2 * sizeof(int32_t));
        fill_compare(s, q.goal, &mem, &small); /* too small at first */
        fill_free(&mem, &small);
      } else if (astar_search_best(s) >= 0) {
        fill_compare(s, astar_search_best(s), &mem, &kept); /* a partial path */
      }
    }
    { /* a node not reached (a blocked one): nothing written */
      astar_query q;
      int32_t n = -1;
      astar_grid_set_blocked(gr, w - 1, 0, 1);
      astar_query_init(&q, 0, 0);
      CHECK(astar_search_begin(s, tp, &q) == ASTAR_OK && astar_search_step(s, 0) == ASTAR_FOUND);
      CHECK(astar_search_path_fill(s, w - 1, fill_alloc, &mem, &kept.nodes, &kept.ncap,
                                   &kept.links, &kept.lcap, &n, NULL) == ASTAR_OK && n == 0);
      CHECK(astar_search_path_fill(s, -1, fill_alloc, &mem, &kept.nodes, &kept.ncap, NULL,
                                   NULL, &n, NULL) == ASTAR_OK && n == 0);
      CHECK(astar_search_path_fill(s, w * h, fill_alloc, &mem, &kept.nodes, &kept.ncap, NULL,
                                   NULL, &n, NULL) == ASTAR_OK && n == 0);
    }
    astar_grid_free(gr);
  }
  CHECK(found > 100 && jps_found > 50);
  { /* graphs (edge ids as links) and reverse distance searches */
    astar_graph *g = seed_graph();
    astar_topology *tp = astar_graph_topology(g);
    astar_query q;
    int32_t n = -1, src = 5;
    astar_query_init(&q, 0, 5);
    CHECK(astar_search_begin(s, tp, &q) == ASTAR_OK && astar_search_step(s, 0) == ASTAR_FOUND);
    fill_compare(s, 5, &mem, &kept);
    fill_compare(s, 5, &mem, &nolinks);
    CHECK(astar_search_begin_distances(s, tp, &src, 1, 1, &q) == ASTAR_OK);
    CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
    CHECK(astar_search_path_fill(s, 0, fill_alloc, &mem, &kept.nodes, &kept.ncap, &kept.links,
                                 &kept.lcap, &n, NULL) == ASTAR_OK && n == 0);
    astar_graph_free(g);
  }
  { /* out of memory: A* grows in the walk, JPS after counting */
    astar_grid *gr = astar_grid_new(300, 3, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
    astar_topology *tp = astar_grid_topology(gr);
    int k;
    for (k = 0; k < 2; k++) {
      astar_query q;
      fill_buf b = {NULL, NULL, 0, 0, 1};
      int32_t n = -1, *before;
      double cost = -1;
      astar_query_init(&q, 0, 299);
      q.algorithm = k == 0 ? ASTAR_ALGO_ASTAR : ASTAR_ALGO_JPS;
      CHECK(astar_search_begin(s, tp, &q) == ASTAR_OK && astar_search_step(s, 0) == ASTAR_FOUND);
      mem.fail_in = 1; /* the first array, not the second */
      CHECK(astar_search_path_fill(s, 299, fill_alloc, &mem, &b.nodes, &b.ncap, &b.links,
                                   &b.lcap, &n, &cost) == ASTAR_ENOMEM && n == 0);
      before = b.nodes;
      CHECK(b.links == NULL && b.lcap == 0 && (b.nodes == NULL) == (b.ncap == 0));
      mem.fail_in = 0; /* none */
      CHECK(astar_search_path_fill(s, 299, fill_alloc, &mem, &b.nodes, &b.ncap, &b.links,
                                   &b.lcap, &n, &cost) == ASTAR_ENOMEM && n == 0);
      CHECK(b.nodes == before);
      mem.fail_in = -1;
      CHECK(astar_search_path_fill(s, 299, fill_alloc, &mem, &b.nodes, &b.ncap, &b.links,
                                   &b.lcap, &n, &cost) == ASTAR_OK && n == 300 && cost == 299);
      CHECK(b.nodes[0] == 0 && b.nodes[299] == 299 && b.links[298] == b.links[0]);
      fill_free(&mem, &b);
    }
    astar_grid_free(gr);
  }
  fill_free(&mem, &kept);
  fill_free(&mem, &nolinks);
  CHECK(mem.live == 0);
  astar_search_free(s);
}

/* The jump point path, cell by cell, as jps.c wrote it before it wrote
** external ids in runs (5a of issue 19): from the jump points (public
** parents), each jump a diagonal walk then a straight one, a step at a
** time, its link the direction (0..3 +x -x +y -y, 4..7 the diagonals) and
** the cost summed per step in path order.  Returns the length. */
static int32_t ref_jps_path(astar_search *s, int32_t w, int32_t goal, int32_t *jp,
                            int32_t *nodes, int32_t *links, double *cost) {
  int32_t nj = 0, v, k, len = 1;
  double sum = 0;
  for (v = goal; v >= 0; v = astar_search_parent(s, v)) jp[nj++] = v;
  nodes[0] = jp[nj - 1];
  for (k = nj - 2; k >= 0; k--) {
    int32_t x = nodes[len - 1] % w, y = nodes[len - 1] / w, gx = jp[k] % w, gy = jp[k] / w;
    while (x != gx || y != gy) {
      int32_t dx = gx > x ? 1 : gx < x ? -1 : 0, dy = gy > y ? 1 : gy < y ? -1 : 0;
      int d = dx && dy ? (dy > 0 ? (dx > 0 ? 4 : 6) : (dx > 0 ? 5 : 7))
                       : dx ? (dx > 0 ? 0 : 1) : (dy > 0 ? 2 : 3);
      x += dx, y += dy;
      links[len - 1] = d;
      nodes[len++] = y * w + x;
      sum += d < 4 ? 1.0 : ASTAR_GRID_DIAG;
    }
  }
  *cost = sum;
  return len;
}

/* An allocator that keeps 8 marks past every block's end: a write past
** the room a fill was given shows when the block is grown or freed. */
#define GUARD_MARK 0x5eed1e55
typedef struct guard_mem {
  int fail_in; /* allocations left before one fails (-1: never) */
  int bad;     /* marks found overwritten */
} guard_mem;

static void guard_check(guard_mem *m, const void *p, size_t size) {
  const int32_t *g = (const int32_t *)((const char *)p + size);
  int i;
  for (i = 0; i < 8; i++) m->bad += g[i] != GUARD_MARK;
}

static void *guard_alloc(void *ud, void *p, size_t osize, size_t nsize) {
  guard_mem *m = (guard_mem *)ud;
  int32_t *g;
  int i;
  if (p != NULL) guard_check(m, p, osize);
  if (nsize == 0) {
    free(p);
    return NULL;
  }
  if (m->fail_in == 0) return NULL;
  if (m->fail_in > 0) m->fail_in--;
  if ((p = realloc(p, nsize + 8 * sizeof(int32_t))) == NULL) return NULL;
  for (g = (int32_t *)((char *)p + nsize), i = 0; i < 8; i++) g[i] = GUARD_MARK;
  return p;
}

/* astar_search_path and astar_search_path_fill on jump point searches
** (online JPS and jps+) against ref_jps_path: the same cells, links and a
** bit-identical cost, on random queries both ways over grids with long
** open runs and blocked ones; counted only (nothing written past the
** room) when the room is too small, grown, ENOMEM when it cannot be. */
/* lat_path_run (lattice.h), jps_path's runs: the cells, their links, and
** the cost: summed step by step in path order unless the caller says every
** sum of the path is exact (then n * c at once, the same bits). */
static void test_path_run_sum(void) {
  int32_t nodes[16], links[16], i, end;
  double t0[2] = {3.5, 1e9 + 0.3}, seq, sum, c = ASTAR_GRID_DIAG;
  int k, exact, differs = 0;
  for (k = 0; k < 2; k++)
    for (exact = 0; exact < 2; exact++) {
      if (exact && k == 1) continue; /* above 2^21: the caller never says exact */
      for (seq = t0[k], i = 0; i < 9; i++) seq += c;
      differs |= seq != t0[k] + 9 * c;
      memset(links, -1, sizeof links);
      nodes[2] = 40;
      sum = t0[k];
      end = lat_path_run(nodes, exact ? NULL : links, 3, 9, 5, -7, c, &sum, exact);
      CHECK(end == 12);
      CHECK(memcmp(&sum, &seq, sizeof sum) == 0);
      for (i = 3; i < 12; i++) CHECK(nodes[i] == 40 - 7 * (i - 2));
      for (i = 2; i < 11; i++) CHECK(links[i] == (exact ? -1 : 5));
      CHECK(links[1] == -1 && links[11] == -1);
    }
  CHECK(differs); /* the case above 2^21 tells the two sums apart */
}

static void test_jps_path_fill(void) {
  static const int algos[] = {ASTAR_ALGO_JPS, ASTAR_ALGO_JPS_PLUS};
  unsigned r = 1871u;
  guard_mem mem = {-1, 0};
  astar_search *s = astar_search_new(NULL, NULL);
  int t, a, q_n, dir, compared = 0, small = 0, enomem = 0, long_runs = 0;
  for (t = 0; t < 24; t++) {
    int32_t w = 2 + (int32_t)((r = r * 1103515245u + 12345u) >> 16) % (t % 3 == 0 ? 300 : 70);
    int32_t h = 2 + (int32_t)((r = r * 1103515245u + 12345u) >> 16) % (t % 3 == 1 ? 200 : 50);
    int32_t i, n = w * h, *jp = malloc((size_t)n * sizeof *jp);
    int32_t *rn = malloc((size_t)n * sizeof *rn), *rl = malloc((size_t)n * sizeof *rl);
    int32_t *pn = malloc(((size_t)n + 8) * sizeof *pn), *pl = malloc(((size_t)n + 8) * sizeof *pl);
    astar_grid *gr = astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
    astar_topology *tp = astar_grid_topology(gr);
    int density = (int)(t % 4) * 6; /* 0: open; else one cell in 50 / density */
    if (density)
      for (i = 0; i < n * density / 50; i++) {
        r = r * 1103515245u + 12345u;
        astar_grid_set_blocked(gr, (int32_t)(r >> 8) % w, (int32_t)(r >> 18) % h, 1);
      }
    CHECK(astar_grid_precompute_jumps(gr, 1) == ASTAR_OK);
    for (q_n = 0; q_n < 60; q_n++) {
      int32_t ends[2];
      for (i = 0; i < 2; i++) {
        int tries = 0;
        do {
          r = r * 1103515245u + 12345u;
          ends[i] = (int32_t)((r >> 4) % (unsigned)n);
        } while (astar_grid_blocked(gr, ends[i] % w, ends[i] / w) && ++tries < 50);
      }
      for (dir = 0; dir < 2; dir++)
        for (a = 0; a < 2; a++) {
          astar_query q;
          int32_t len, m, k, from = ends[dir], to = ends[1 - dir], flen = -1;
          double rc_cost = -1, c1 = -2, c2 = -3;
          int32_t *fn = NULL, *fl = NULL;
          size_t fncap = 0, flcap = 0, room;
          astar_query_init(&q, from, to);
          q.algorithm = algos[a];
          if (astar_search_begin(s, tp, &q) != ASTAR_OK) {
            CHECK(astar_grid_blocked(gr, from % w, from / w) ||
                  astar_grid_blocked(gr, to % w, to / w));
            continue;
          }
          CHECK(astar_search_jps(s));
          if (astar_search_step(s, 0) != ASTAR_FOUND) continue;
          len = ref_jps_path(s, w, to, jp, rn, rl, &rc_cost);
          CHECK(rn[0] == from && rn[len - 1] == to);
          if (len >= 100) long_runs++;
          CHECK(astar_search_path_length(s, to) == len);
          /* the caller's room: links and none */
          for (k = 0; k < len + 8; k++) pn[k] = pl[k] = GUARD_MARK;
          m = astar_search_path(s, to, pn, (q_n & 1) ? NULL : pl, (q_n & 2) ? NULL : &c1);
          CHECK(m == len && !memcmp(pn, rn, (size_t)len * sizeof *rn));
          if (!(q_n & 1)) CHECK(!memcmp(pl, rl, (size_t)(len - 1) * sizeof *rl));
          else CHECK(pl[0] == GUARD_MARK);
          if (!(q_n & 2)) CHECK(!memcmp(&c1, &rc_cost, sizeof c1));
          for (k = len; k < len + 8; k++) CHECK(pn[k] == GUARD_MARK);
          for (k = (q_n & 1) ? 0 : len - 1; k < len + 8; k++) CHECK(pl[k] == GUARD_MARK);
          /* grown arrays: from a room too small (or none), links or not */
          r = r * 1103515245u + 12345u;
          room = (r >> 8) % ((size_t)len + 3);
          if (q_n & 4) room = (size_t)len + (r >> 20) % 3; /* room enough */
          if (room) {
            fn = (int32_t *)guard_alloc(&mem, NULL, 0, room * sizeof *fn), fncap = room;
            if ((q_n & 1) == 0 && room > 1)
              fl = (int32_t *)guard_alloc(&mem, NULL, 0, (room - 1) * sizeof *fl), flcap = room - 1;
          }
          if ((size_t)len > room) small++;
          if ((size_t)len > room && q_n % 7 == 3) { /* no memory: nothing to show */
            mem.fail_in = 0;
            CHECK(astar_search_path_fill(s, to, guard_alloc, &mem, &fn, &fncap,
                                         (q_n & 1) ? NULL : &fl, &flcap, &flen, &c2) ==
                      ASTAR_ENOMEM &&
                  flen == 0);
            mem.fail_in = -1;
            enomem++;
          }
          CHECK(astar_search_path_fill(s, to, guard_alloc, &mem, &fn, &fncap,
                                       (q_n & 1) ? NULL : &fl, &flcap, &flen, &c2) == ASTAR_OK);
          CHECK(flen == len && fncap >= (size_t)len && !memcmp(fn, rn, (size_t)len * sizeof *rn));
          CHECK(!memcmp(&c2, &rc_cost, sizeof c2));
          if (!(q_n & 1) && len > 1)
            CHECK(flcap >= (size_t)len - 1 && !memcmp(fl, rl, (size_t)(len - 1) * sizeof *rl));
          if (fn) guard_alloc(&mem, fn, fncap * sizeof *fn, 0);
          if (fl) guard_alloc(&mem, fl, flcap * sizeof *fl, 0);
          compared++;
        }
    }
    free(jp), free(rn), free(rl), free(pn), free(pl);
    astar_grid_free(gr);
  }
  CHECK(mem.bad == 0);
  CHECK(compared > 4000 && small > 1500 && enomem > 200 && long_runs > 200);
  astar_search_free(s);
}

/* lattice.h's lat_row: the row of a padded id by a multiply and a shift
** (lat_row_magic) equals the division at both ends of every row of the
** largest grid of each width (1 to ASTAR_GRID_MAX_SIDE columns, as many rows
** as the limits allow): the quotient is monotone in the id, so that holds
** for every id between.  Rows are sampled (every 31st, 255th under --light,
** and the first and last four) past 64 columns; the full sweep of all 5.1
** billion ends passes too (doc/design.md).  A real grid's multiplier and
** shift are lat_row_magic's, and a 300-wide grid's every id gives its row. */
static void test_lat_row(void) {
  int64_t w, bad = 0, rows = 0;
  const int64_t every = light ? 255 : 31;
  astar_grid g, *gr = astar_grid_new(300, 7, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  uint32_t m, sh;
  int32_t p;
  memset(&g, 0, sizeof g);
  for (w = 1; w <= ASTAR_GRID_MAX_SIDE; w++) {
    int64_t h = ((int64_t)1 << 30) / w, pw = w + 2, ph, k;
    if (w * h >= (int64_t)1 << 30) h--;
    if (h > ASTAR_GRID_MAX_SIDE) h = ASTAR_GRID_MAX_SIDE;
    ph = h + 2;
    lat_row_magic((int32_t)pw, &g.row_m, &g.row_s);
    for (k = 0; k < ph; k++) {
      if (w > 64 && k >= 4 && k < ph - 4 && k % every) continue;
      rows++;
      if (lat_row(&g, (int32_t)(k * pw)) != k || lat_row(&g, (int32_t)(k * pw + pw - 1)) != k) bad++;
    }
  }
  CHECK(bad == 0 && rows > 1000000);
  CHECK(gr != NULL);
  if (!gr) return;
  lat_row_magic(gr->pw, &m, &sh);
  CHECK(gr->row_m == m && gr->row_s == sh);
  for (p = 0, bad = 0; p < gr->pw * gr->ph; p++)
    if (lat_row(gr, p) != p / gr->pw) bad++;
  CHECK(bad == 0);
  astar_grid_free(gr);
}

int main(int argc, char **argv) {
  if (argc > 2 || (argc == 2 && strcmp(argv[1], "--light") != 0)) {
    fprintf(stderr, "usage: core_test [--light]\n");
    return 2;
  }
  light = argc == 2;
  test_version();
  test_no_edges();
  test_seed();
  test_bad_input();
  test_grid();
  test_jps();
  test_jps_diagonal_g();
  test_jps_online_pin();
  test_lat_row();
  test_stop_bits();
  test_jps_plus();
  test_jump_escapes();
  test_jump_waypoints();
  test_jump_goal();
  test_jump_slot_growth();
  test_jump_repair_walks();
  test_hex();
  test_lattice();
  test_topology();
  test_fast_path_honours_fields();
  test_error_causes();
  test_parents();
  test_tables();
  test_pages_and_components();
  test_anyangle();
  test_anyangle_overflow();
  test_theta_fast_changed();
  test_grid_pass();
  test_lane_gate();
  test_step_fault();
  test_graph_step_fault();
  test_sizes();
  test_edits();
  test_graph_repair();
  test_split_lockstep();
  test_sparse_state();
  test_lazy_heap();
  test_set_blocked_all();
  test_slot_growth();
  test_heap_order();
  test_path_externals();
  test_path_fill();
  test_path_run_sum();
  test_jps_path_fill();
  printf("core_test: %d checks, %d failed%s\n", checks, failures, light ? " (--light)" : "");
  return failures != 0;
}
