/*
** lbatch.c -- astar.batch: many path requests on one topology, searched on
** OS threads (src/thread.c).  Included by lastar.c.
**
** The call parses everything first (requests, options) on the calling
** thread, then the workers run the searches with no Lua at all: each
** worker has its own search state and takes the next request from a
** shared counter; the topology, the option fields and heuristic objects are
** only read.  The topology is held and locked for the whole call, so
** nothing can change it from a finalizer while the workers read it (a
** mutator raises "grid is being searched").  Lua callbacks cannot run on
** other threads: options naming one are refused.
**
** Memory: the workers' search states, paths and records come from malloc
** (Lua's allocator is not for other threads) and belong to a Batch
** userdata whose __gc frees them whatever happens; a batch that returns
** frees them at once.  Search states are not kept between batches.
*/

#include "thread.h"

#define BATCH_MT "astar.Batch"

/* Most threads one batch starts. */
#define BATCH_MAX_THREADS 64

/* The outcome of one request, copied out of the worker's search. */
typedef struct bresult {
  int status;  /* final status, or an error (< 0) */
  int32_t len; /* path nodes (0: no path) */
  int partial; /* the path leads to the best node */
  double cost;
  int32_t *nodes, *links;
  lrecord rec; /* stats; visited and trace are copies */
  astar_error_info err;
} bresult;

typedef struct lbatch {
  size_t n; /* requests */
  int32_t *starts, *goals;
  bresult *res;
  astar_topology *t;
  astar_query q; /* start and goal set per request */
  astar_mutex *mu;
  size_t next; /* the next request to take (under mu) */
  int threads;
  astar_search *s[BATCH_MAX_THREADS];
} lbatch;

/* Frees what the batch holds; idempotent (__gc, and the end of the call). */
static void batch_free(lbatch *B) {
  size_t i;
  int k;
  if (B->res) {
    for (i = 0; i < B->n; i++) {
      free(B->res[i].nodes);
      free(B->res[i].links);
      free((void *)B->res[i].rec.visited);
      free((void *)B->res[i].rec.trace);
    }
  }
  free(B->res);
  free(B->starts);
  free(B->goals);
  B->res = NULL;
  B->starts = B->goals = NULL;
  for (k = 0; k < BATCH_MAX_THREADS; k++) {
    astar_search_free(B->s[k]);
    B->s[k] = NULL;
  }
  astar_mutex_free(B->mu);
  B->mu = NULL;
}

static int l_batch_gc(lua_State *L) {
  batch_free((lbatch *)luaL_checkudata(L, 1, BATCH_MT));
  return 0;
}

/* Copies n elements of `size` bytes into fresh malloc'd memory (NULL for
** none); *ok drops to 0 when out of memory. */
static void *batch_copy(const void *p, size_t n, size_t size, int *ok) {
  void *c;
  if (n == 0 || p == NULL) return NULL;
  c = malloc(n * size);
  if (c == NULL) {
    *ok = 0;
    return NULL;
  }
  memcpy(c, p, n * size);
  return c;
}

/* Runs request i on search s and keeps its outcome (no Lua here). */
static void batch_run_one(lbatch *B, astar_search *s, size_t i) {
  bresult *r = &B->res[i];
  astar_query q = B->q;
  int rc, ok = 1;
  int32_t to = -1;
  q.start = B->starts[i];
  q.goal = B->goals[i];
  rc = astar_search_begin(s, B->t, &q);
  if (rc == ASTAR_OK) rc = astar_search_step(s, 0);
  r->status = rc;
  if (rc < 0) {
    r->err = *astar_search_error(s);
    return;
  }
  if (rc == ASTAR_FOUND) {
    to = astar_search_goal(s);
  } else if (q.track_best && astar_search_best(s) >= 0) {
    to = astar_search_best(s);
    r->partial = 1;
  }
  if (to >= 0) {
    r->len = astar_search_path_length(s, to);
    r->nodes = (int32_t *)malloc((size_t)r->len * sizeof(int32_t));
    r->links = (int32_t *)malloc((size_t)r->len * sizeof(int32_t));
    if (r->nodes == NULL || r->links == NULL) ok = 0;
    else astar_search_path(s, to, r->nodes, r->links, &r->cost);
  }
  record_of(s, &r->rec);
  r->rec.visited = (const int32_t *)batch_copy(r->rec.visited, r->rec.nvisited,
                                               sizeof(int32_t), &ok);
  r->rec.trace = (const astar_trace_entry *)batch_copy(r->rec.trace, r->rec.ntrace,
                                                       sizeof(astar_trace_entry), &ok);
  if (!ok) r->status = ASTAR_ENOMEM;
}

typedef struct bworker {
  lbatch *B;
  astar_search *s;
  double cpu;  /* CPU seconds this worker used */
  size_t done; /* requests it searched */
} bworker;

/* A worker: takes requests until none is left. */
static void batch_worker(void *arg) {
  bworker *w = (bworker *)arg;
  lbatch *B = w->B;
  double t0 = astar_thread_cpu();
  for (;;) {
    size_t i;
    astar_mutex_lock(B->mu);
    i = B->next++;
    astar_mutex_unlock(B->mu);
    if (i >= B->n) break;
    batch_run_one(B, w->s, i);
    w->done++;
  }
  w->cpu = astar_thread_cpu() - t0;
}

/* Keeps what the workers did, for astar.core._batch_info() (the
** benchmark's measure of the parallel part, whatever else the machine
** runs): the registry's "astar.batch_info" = { threads =, started =,
** cpu = { seconds per worker }, requests = { count per worker } }. */
static void batch_note(lua_State *L, const bworker *w, int threads, int started) {
  int k;
  lua_createtable(L, 0, 4);
  set_int(L, "threads", threads);
  set_int(L, "started", started);
  lua_createtable(L, threads, 0);
  for (k = 0; k < threads; k++) {
    lua_pushnumber(L, w[k].cpu);
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "cpu");
  lua_createtable(L, threads, 0);
  for (k = 0; k < threads; k++) {
    lua_pushinteger(L, (lua_Integer)w[k].done);
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "requests");
  lua_setfield(L, LUA_REGISTRYINDEX, "astar.batch_info");
}

/* astar.core._batch_info() -> what the last batch's workers did (see
** batch_note), or nil. */
static int l_batch_info(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, "astar.batch_info");
  return 1;
}

/* Reads entry k (1-based) of request i (1-based) at vidx: a node of T, in
** the request's list of 2 (graphs) or 4 (grids) numbers. */
static int32_t batch_node(lua_State *L, ltopo *T, int vidx, size_t i, int k) {
  int32_t w, h, count = astar_topology_node_count(T->t);
  double v;
  int grid = T->cls->shape(T, &w, &h);
  int32_t hi = grid ? (k % 2 ? w : h) : count;
  lua_rawgeti(L, vidx, k);
  v = lua_tonumber(L, -1);
  if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 1 || v > hi) {
    if (grid)
      arg_error(L, 2, lua_pushfstring(L, "requests[%d][%d] must be %s in 1..%d, got %s", (int)i, k, k % 2 ? "an x" : "a y", (int)hi, describe(L, -1)));
    arg_error(L, 2, lua_pushfstring(L, "requests[%d][%d] must be a node id in 1..%d, got %s", (int)i, k, (int)hi, describe(L, -1)));
  }
  lua_pop(L, 1);
  return (int32_t)v - 1;
}

/* Pushes a copy of the options table at arg without "threads" (the search
** options are parsed from it), and reads threads into *threads. */
static void batch_options(lua_State *L, int arg, int *threads) {
  int i, inherits;
  *threads = astar_cpu_count();
  lua_newtable(L);
  if (lua_isnoneornil(L, arg)) return;
  if (!lua_istable(L, arg)) type_error(L, arg, "table");
  lua_getfield(L, arg, "threads");
  if (!lua_isnil(L, -1)) {
    double v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 1)
      arg_error(L, arg, lua_pushfstring(L, "threads must be an integer >= 1, got %s", describe(L, -1)));
    *threads = v > BATCH_MAX_THREADS ? BATCH_MAX_THREADS : (int)v;
  }
  lua_pop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, arg)) { /* its own entries */
    if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "threads") == 0) {
      lua_pop(L, 1);
      continue;
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  inherits = lua_getmetatable(L, arg);
  if (inherits) lua_pop(L, 1);
  for (i = 0; inherits && i < COUNT_OF(options); i++) { /* and inherited ones */
    lua_getfield(L, arg, options[i].name);
    lua_setfield(L, -2, options[i].name);
  }
}

/*
** astar.batch(topology, requests [, opts]) -> paths, reasons: requests[i]
** is {x1, y1, x2, y2} (grids) or {start, goal} (graphs); paths[i] is what
** find_path would return for it (the path table, or a partial path) or
** false, reasons[i] "found" or why not.  opts: the find_path options that
** run in C, and threads = n (default: the number of processors).
*/
static int l_batch(lua_State *L) {
  /* stack: 1 topology, 2 requests, 3 options (a copy without threads), 4
  ** the batch, 5 a search state (for tag factors), then the option slots */
  lcall *C = call_frame(L);
  ltopo *T = check_topo(L, 1, NULL);
  size_t n, i;
  int threads, k, na, started;
  lbatch *B;
  lsearch *S;
  lopts o;
  bworker w[BATCH_MAX_THREADS];
  void *args[BATCH_MAX_THREADS];
  hold(L, C, &T->o, 1); /* read by the workers: locked */
  na = 2 * T->cls->node_args;
  if (!lua_istable(L, 2)) type_error(L, 2, "table (a list of requests)");
  lua_settop(L, 3);
  batch_options(L, 3, &threads);
  lua_replace(L, 3);
  B = (lbatch *)lua_newuserdata(L, sizeof(lbatch)); /* 4 */
  memset(B, 0, sizeof *B);
  luaL_getmetatable(L, BATCH_MT);
  lua_setmetatable(L, -2);
  S = acquire_search(L, C, 1); /* 5 */
  parse_options(L, C, T, 1, 3, &S->b, &o, 0, 0, FOR_PATH);
  if (!lua_isnil(L, o.slot + SLOT_H))
    arg_error(L, 3, "heuristic must be a built-in name or a heuristic object (a Lua function "
                    "cannot run on other threads)");
  if (!lua_isnil(L, o.slot + SLOT_COST))
    arg_error(L, 3, "cost callbacks cannot run on other threads (use costs, penalty or forbid)");
  if (o.any_angle)
    arg_error(L, 3, "any_angle is not available in batches (use smooth, or find_path)");
  n = compat_rawlen(L, 2);
  /* the requests, checked before anything runs */
  B->starts = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
  B->goals = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
  B->res = (bresult *)calloc(n ? n : 1, sizeof(bresult));
  B->n = n;
  if (!B->starts || !B->goals || !B->res) return status_error(L, ASTAR_ENOMEM);
  for (i = 0; i < n; i++) {
    int top = lua_gettop(L);
    lua_rawgeti(L, 2, (int)i + 1);
    if (!lua_istable(L, -1))
      arg_error(L, 2, lua_pushfstring(L, "requests[%d] must be a table %s, got %s", (int)i + 1, na == 4 ? "{x1, y1, x2, y2}" : "{start, goal}", describe(L, -1)));
    if (na == 4) {
      int32_t w0, h0, x1, y1, x2, y2;
      T->cls->shape(T, &w0, &h0);
      x1 = batch_node(L, T, top + 1, i + 1, 1);
      y1 = batch_node(L, T, top + 1, i + 1, 2);
      x2 = batch_node(L, T, top + 1, i + 1, 3);
      y2 = batch_node(L, T, top + 1, i + 1, 4);
      B->starts[i] = y1 * w0 + x1;
      B->goals[i] = y2 * w0 + x2;
    } else {
      B->starts[i] = batch_node(L, T, top + 1, i + 1, 1);
      B->goals[i] = batch_node(L, T, top + 1, i + 1, 2);
    }
    lua_settop(L, top);
  }
  /* (a close from a finalizer meanwhile waits for the end of the call: the
  ** topology is held, its memory stays, and the batch answers as usual) */
  /* the workers: the topology's derived structures (adjacency, clearance)
  ** are made here, once: the workers only read */
  check_status(L, astar_topology_prepare(T->t, &o.q));
  B->t = T->t;
  B->q = o.q;
  B->mu = astar_mutex_new();
  if (B->mu == NULL) return status_error(L, ASTAR_ENOMEM);
  if ((size_t)threads > n) threads = n ? (int)n : 1;
  B->threads = threads;
  for (k = 0; k < threads; k++) {
    B->s[k] = astar_search_new(NULL, NULL);
    if (B->s[k] == NULL) return status_error(L, ASTAR_ENOMEM);
    w[k].B = B;
    w[k].s = B->s[k];
    w[k].cpu = 0;
    w[k].done = 0;
    args[k] = &w[k];
  }
  started = astar_run_workers(threads, batch_worker, args);
  batch_note(L, w, threads, started);
  /* the answers, in request order; the first error is raised as find_path
  ** would have raised it */
  for (i = 0; i < n; i++)
    if (B->res[i].status < 0) return search_error_info(L, T, &B->res[i].err, B->res[i].status);
  lua_createtable(L, (int)n, 0); /* paths */
  lua_createtable(L, (int)n, 0); /* reasons */
  for (i = 0; i < n; i++) {
    bresult *r = &B->res[i];
    if (r->len > 0) {
      push_path_table(L, T, r->nodes, r->links, r->len, r->cost, -1.0, &o);
      push_path_size(L, &o);
      if (o.smooth) { /* path.points, as find_path makes them */
        S->b.nodes = (int32_t *)sbuf_grow(L, C->M, S->b.nodes, &S->b.nodes_cap,
                                          (size_t)r->len, sizeof(int32_t));
        memcpy(S->b.nodes, r->nodes, (size_t)r->len * sizeof(int32_t));
        grid_path_points(L, C, T, &S->b, &o, r->len);
      }
      push_record(L, T, &r->rec, &o);
      if (r->partial) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "partial");
        lua_pushstring(L, astar_status_name(r->status));
        lua_setfield(L, -2, "reason");
      }
    } else {
      lua_pushboolean(L, 0);
    }
    lua_rawseti(L, -3, (int)i + 1);
    lua_pushstring(L, astar_status_name(r->status));
    lua_rawseti(L, -2, (int)i + 1);
  }
  batch_free(B);
  return 2;
}
