/*
** core_test.c -- checks of the C core without Lua: the seed 003 examples
** through the public API, grid basics, and the invariants a C engine relies
** on (status codes, unchanged objects on bad input).  Run by `make test`.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "astar.h"

static int failures = 0, checks = 0;

#define CHECK(cond)                                                      \
  do {                                                                   \
    checks++;                                                            \
    if (!(cond)) {                                                       \
      failures++;                                                        \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                    \
  } while (0)

/* seed 003: A..F = 0..5 */
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
  CHECK(astar_search_begin(s, g, &q) == ASTAR_OK);
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
  CHECK(astar_search_begin(s, g, &q) == ASTAR_EINVAL);
  CHECK(astar_search_step(s, 0) == ASTAR_ESTATE);
  astar_query_init(&q, 0, 5);
  q.weight = -1;
  CHECK(astar_search_begin(s, g, &q) == ASTAR_EINVAL);
  astar_graph_lock(g, 1);
  CHECK(astar_graph_add_node(g, 0, 0, 0, &id) == ASTAR_EBUSY);
  astar_graph_lock(g, -1);
  /* a sliced search notices mutation */
  astar_query_init(&q, 0, 5);
  CHECK(astar_search_begin(s, g, &q) == ASTAR_OK);
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
  CHECK(astar_search_begin_grid(s, gr, &q) == ASTAR_OK);
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
  CHECK(astar_search_begin(s, g, &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_UNREACHABLE);
  astar_query_init(&q, 0, 0);
  CHECK(astar_search_begin(s, g, &q) == ASTAR_OK);
  CHECK(astar_search_step(s, 0) == ASTAR_FOUND);
  astar_search_free(s);
  astar_graph_free(g);
}

int main(void) {
  test_no_edges();
  test_seed();
  test_bad_input();
  test_grid();
  printf("core_test: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
