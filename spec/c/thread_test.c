/*
** thread_test.c -- the core searched from several threads at once, as
** astar.batch does it: one topology (a grid, then a graph), prepared once,
** read by 4 workers, each with its own search state, taking requests from a
** counter under a mutex; a landmarks table shared by all.  Every answer is
** checked against the same search run alone.  Built with
** -fsanitize=thread by `make tsan` (ThreadSanitizer reports any data race);
** plain builds run it too.
*/
#include <stdio.h>
#include <stdlib.h>

#include "astar.h"
#include "thread.h"

#define REQUESTS 400
#define WORKERS 4

typedef struct job {
  astar_topology *t;
  astar_table *tab;
  astar_mutex *mu;
  int *next;
  double *cost;                 /* per request: the path cost, -1 when none */
} job;

/* The query of request i: spread ends; every other one uses the table. */
static void request(const job *j, int i, astar_query *q) {
  int32_t n = astar_topology_node_count(j->t);
  astar_query_init(q, (int32_t)((i * 7919L) % n), (int32_t)((i * 104729L) % n));
  if (j->tab != NULL && i % 2) {
    q->heuristic = ASTAR_H_CALLBACK;
    q->heuristic_fn = astar_table_heuristic;
    q->heuristic_ctx = j->tab;
  }
}

static double solve(astar_search *s, const job *j, int i) {
  astar_query q;
  double c = -1;
  request(j, i, &q);
  if (astar_search_begin(s, j->t, &q) == ASTAR_OK && astar_search_step(s, 0) == ASTAR_FOUND) {
    int32_t len = astar_search_path_length(s, q.goal);
    int32_t *nodes = (int32_t *)malloc((size_t)len * sizeof(int32_t));
    if (nodes != NULL) astar_search_path(s, q.goal, nodes, NULL, &c);
    free(nodes);
  }
  return c;
}

static void worker(void *arg) {
  job *j = (job *)arg;
  astar_search *s = astar_search_new(NULL, NULL);
  for (;;) {
    int i;
    astar_mutex_lock(j->mu);
    i = (*j->next)++;
    astar_mutex_unlock(j->mu);
    if (i >= REQUESTS) break;
    j->cost[i] = s ? solve(s, j, i) : -2;
  }
  astar_search_free(s);
}

/* Runs the requests on WORKERS threads and alone; 0 when all agree. */
static int check(astar_topology *t, const char *what) {
  static double cost[REQUESTS];
  job j[WORKERS];
  void *args[WORKERS];
  int next = 0, i, bad = 0, started;
  astar_table *tab = NULL;
  astar_search *s = astar_search_new(NULL, NULL);
  astar_mutex *mu = astar_mutex_new();
  if (s == NULL || mu == NULL || astar_landmarks_build(t, 4, NULL, NULL, &tab) != ASTAR_OK ||
      astar_topology_prepare(t, NULL) != ASTAR_OK) {
    printf("%s: setup failed\n", what);
    return 1;
  }
  for (i = 0; i < WORKERS; i++) {
    j[i].t = t;
    j[i].tab = tab;
    j[i].mu = mu;
    j[i].next = &next;
    j[i].cost = cost;
    args[i] = &j[i];
  }
  started = astar_run_workers(WORKERS, worker, args);
  for (i = 0; i < REQUESTS; i++)
    if (solve(s, &j[0], i) != cost[i]) bad++;
  printf("%s: %d requests on %d workers (%d threads started), %d differ\n", what, REQUESTS,
         WORKERS, started, bad);
  astar_table_free(tab);
  astar_search_free(s);
  astar_mutex_free(mu);
  return bad != 0;
}

int main(void) {
  astar_grid *g = astar_grid_new(64, 64, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  astar_graph *gr = astar_graph_new(NULL, NULL);
  int32_t i, id;
  int fails = 0;
  if (g == NULL || gr == NULL) return 1;
  for (i = 0; i < 60; i++) astar_grid_set_blocked(g, 32, i, 1);
  for (i = 0; i < 4096; i++) astar_graph_add_node(gr, i % 64, i / 64, 0, &id);
  for (i = 0; i + 1 < 4096; i++) {
    astar_graph_add_edge(gr, i, i + 1, 1 + i % 3, 0, &id);
    if (i + 64 < 4096) astar_graph_add_edge(gr, i, i + 64, 2, 0, &id);
    astar_graph_add_edge(gr, i + 1, i, 1, 0, &id);
  }
  fails += check(astar_grid_topology(g), "grid");
  fails += check(astar_graph_topology(gr), "graph");
  astar_grid_free(g);
  astar_graph_free(gr);
  return fails != 0;
}
