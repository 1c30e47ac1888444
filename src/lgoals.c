/*
** lgoals.c -- where units go: the cells nearest a point (nearest_open), n
** distinct cells around a goal (spread), the nearest node of a graph to a
** position (nearest).  Included by lastar.c after lsmooth.c.
**
** Every answer here is a question put to the core (a distance search
** stepped a fixed number of expansions, the unit test the searches use)
** or a scan whose cost is bounded by what it finds: nothing is kept
** between calls.
*/

/* ------------------------------------------------------------------------ */
/* nearest cells by a metric                                                  */
/* ------------------------------------------------------------------------ */

/* The metrics a ring scan measures cells by. */
enum { METRIC_EUCLID, /* between centres: square cells 1 apart, hexagons 1 apart */
       METRIC_STEPS   /* the lattice's step lengths on open ground (octile, Manhattan
                      ** for rule never, hex steps) */
};

/* The distance from (x0, y0) to (x, y), 0-based cells. */
static double cell_metric(const astar_grid *gr, int metric, int32_t x0, int32_t y0, int32_t x,
                          int32_t y) {
  int hex = astar_hex_layout(gr) >= 0;
  if (metric == METRIC_EUCLID) {
    double ax, ay, bx, by;
    if (!hex) {
      ax = x0;
      ay = y0;
      bx = x;
      by = y;
    } else {
      astar_hex_center(astar_hex_layout(gr), x0, y0, &ax, &ay);
      astar_hex_center(astar_hex_layout(gr), x, y, &bx, &by);
    }
    return sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
  }
  if (hex) return astar_hex_distance(gr, x0, y0, x, y);
  {
    double dx = fabs((double)x - x0), dy = fabs((double)y - y0);
    if (astar_grid_diagonal(gr) == ASTAR_DIAG_NEVER) return dx + dy;
    return dx > dy ? dx - dy + ASTAR_GRID_DIAG * dy : dy - dx + ASTAR_GRID_DIAG * dx;
  }
}

/* The least distance a cell r columns or rows away (the ring of
** Chebyshev radius r in offset coordinates) can have: square grids r;
** hexagons: r rows are r * sqrt(3) / 2 apart, r columns at least r - 1/2
** (a shoved row); a hex step moves at most one row and one column. */
static double ring_bound(const astar_grid *gr, int metric, int32_t r) {
  double v, c;
  if (metric == METRIC_STEPS || astar_hex_layout(gr) < 0) return r;
  v = r * 0.8660254037844386;
  c = r - 0.5;
  return v < c ? v : (c > 0 ? c : 0);
}

/* Whether the unit of q->size may stand at cell (x, y): the grid's own
** passability through the clearance layer, or under q's filter too
** (filtered: forbid and tag factors) as the searches test it. */
static int cell_fits(astar_grid *gr, const astar_query *q, int filtered, int32_t x, int32_t y) {
  if (filtered)
    return astar_grid_step_fault(gr, q, -1, y * astar_grid_width(gr) + x, NULL) ==
           ASTAR_STEP_OK;
  if (q->size <= 1) return astar_grid_blocked(gr, x, y) == 0;
  return astar_grid_clearance(gr, x, y) >= q->size;
}

/* Distances this close are equal (hexagon centres carry rounding: the six
** neighbours of a cell come out 1 +- 2e-16 away). */
#define DIST_TOL(d) (1e-9 * ((d) > 1 ? (d) : 1))

/*
** The cell nearest (x0, y0) by `metric` where the unit fits, within maxd:
** rings of growing Chebyshev radius, until the ring's least distance
** passes the best found (or maxd, or the ring leaves the grid).  Ties: the
** smaller id (distances within DIST_TOL are ties).  Returns its id, -1 when none; *bd its distance.  Reads
** only the cells of the rings up to the answer's distance.
*/
static int32_t ring_nearest(astar_grid *gr, const astar_query *q, int filtered, int metric,
                            int32_t x0, int32_t y0, double maxd, double *bd) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), r, x, y, best = -1;
  double bestd = HUGE_VAL;
  for (r = 0;; r++) {
    double lb = ring_bound(gr, metric, r);
    if (lb > maxd || lb > bestd + DIST_TOL(bestd)) break;
    if (x0 - r < 0 && y0 - r < 0 && x0 + r >= w && y0 + r >= h) break;
    for (y = y0 - r; y <= y0 + r; y++) {
      int32_t step = (y == y0 - r || y == y0 + r) ? 1 : 2 * r;
      if (y < 0 || y >= h) continue;
      for (x = x0 - r; x <= x0 + r; x += step > 0 ? step : 1) {
        double d;
        int32_t id;
        if (x < 0 || x >= w) continue;
        d = cell_metric(gr, metric, x0, y0, x, y);
        id = y * w + x;
        if (d > maxd || d > bestd + DIST_TOL(bestd)) continue;
        if (d >= bestd - DIST_TOL(bestd) && id > best) continue; /* a tie: the smaller id */
        if (!cell_fits(gr, q, filtered, x, y)) continue;
        best = id;
        bestd = d;
      }
    }
  }
  *bd = bestd;
  return best;
}

/* grid:nearest_open(x, y [, size [, max_radius]]) -> x, y, distance, or nil:
** the open cell nearest (x, y) by the distance between centres where a
** unit of `size` fits, within max_radius (default: anywhere). */
static int l_cells_nearest_open(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x0, y0, best;
  double maxd = HUGE_VAL, d;
  astar_query q;
  check_xy(L, T, 2, &x0, &y0);
  astar_query_init(&q, 0, 0);
  q.size = check_size(L, 4);
  if (!lua_isnoneornil(L, 5)) {
    if (lua_type(L, 5) != LUA_TNUMBER) type_error(L, 5, "number");
    maxd = lua_tonumber(L, 5);
    if (!(maxd >= 0))
      arg_error(L, 5, lua_pushfstring(L, "max_radius must be a number >= 0, got %s", describe(L, 5)));
  }
  if (q.size > 1) check_status(L, astar_grid_clearance(T->grid, x0, y0)); /* builds the layer */
  best = ring_nearest(T->grid, &q, 0, METRIC_EUCLID, x0, y0, maxd, &d);
  account(L, T->o.M);
  if (best < 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, best % astar_grid_width(T->grid) + 1);
  lua_pushinteger(L, best / astar_grid_width(T->grid) + 1);
  lua_pushnumber(L, d);
  return 3;
}

/* ------------------------------------------------------------------------ */
/* spread                                                                     */
/* ------------------------------------------------------------------------ */

/*
** grid:spread(x, y, n [, size]) -> { {x, y}, ... }: the n cells nearest
** the goal by path cost (a reverse distance search from it, as
** grid:distances computes: the cost of walking from the cell to the goal),
** reachable, where the unit fits; in that order, the goal first.  The
** search stops after n expansions: it costs what n cells cost, whatever
** the map's size.  Fewer when fewer are reachable; none when the unit does
** not fit at the goal.
*/
static int l_cells_spread(lua_State *L) {
  /* stack: 1 grid, 2 x, 3 y, 4 n, 5 size, then the search state */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 1);
  int32_t goal = check_xy(L, T, 2, NULL, NULL);
  int32_t n = check_range(L, 4, "n", 1, INT32_MAX);
  lsearch *S;
  astar_query q;
  const int32_t *vis;
  size_t nv;
  int rc;
  astar_query_init(&q, goal, goal);
  q.size = check_size(L, 5);
  q.record_visited = 1;
  lua_settop(L, 5);
  S = acquire_search(L, C, 1);
  rc = astar_search_begin_distances(S->b.s, T->t, &goal, 1, 1, &q);
  if (rc == ASTAR_OK) rc = astar_search_step(S->b.s, (uint64_t)n);
  if (rc < 0) return search_error(L, T, S->b.s, rc);
  vis = astar_search_visited(S->b.s, &nv);
  push_points(L, T, vis, NULL, (int32_t)(nv > (size_t)n ? (size_t)n : nv));
  return 1;
}

/* ------------------------------------------------------------------------ */
/* graphs                                                                     */
/* ------------------------------------------------------------------------ */

/* graph:nearest(x, y [, z]) -> node, distance, or nil: the enabled node
** nearest the position (Euclidean; in the plane when z is absent, else in
** space).  Ties: the smaller id.  A scan of every node. */
static int l_graph_nearest(lua_State *L) {
  ltopo *T = check_self(L);
  double x = check_finite(L, 2, "x"), y = check_finite(L, 3, "y"), z = 0, best = HUGE_VAL;
  int use_z = !lua_isnoneornil(L, 4);
  int32_t n = astar_graph_node_count(GRAPH(T)), i, id = -1;
  if (use_z) z = check_finite(L, 4, "z");
  for (i = 0; i < n; i++) {
    double p[3] = {0, 0, 0}, d;
    if (!astar_graph_enabled(GRAPH(T), i)) continue;
    astar_graph_position(GRAPH(T), i, p);
    d = (p[0] - x) * (p[0] - x) + (p[1] - y) * (p[1] - y);
    if (use_z) d += (p[2] - z) * (p[2] - z);
    if (d < best) {
      best = d;
      id = i;
    }
  }
  if (id < 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, id + 1);
  lua_pushnumber(L, sqrt(best));
  return 2;
}

/* ------------------------------------------------------------------------ */
/* methods written in Lua                                                     */
/* ------------------------------------------------------------------------ */

/* core._methods() -> the method tables of astar.Grid, astar.Hex and
** astar.Graph, and the path methods: lua/astar.lua adds the methods written
** in Lua (lua/astar/follow.lua) to them, once, when the module loads. */
static int l_methods(lua_State *L) {
  static const char *const names[] = {GRID_MT, HEX_MT, "astar.Graph"};
  int i;
  for (i = 0; i < 3; i++) {
    luaL_getmetatable(L, names[i]);
    lua_getfield(L, -1, "__index");
    lua_remove(L, -2);
  }
  luaL_getmetatable(L, GRID_PATH_MT);
  lua_getfield(L, -1, "__index");
  lua_getupvalue(L, -1, 1);
  lua_remove(L, -2);
  lua_remove(L, -2);
  return 4;
}

/* ------------------------------------------------------------------------ */
/* the nearest of several goals                                               */
/* ------------------------------------------------------------------------ */

static int cmp_id(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Reads the list of cells (what: "threats") at arg into b->nodes, sorted
** when asked; returns how many.  Raw reads: no Lua code runs. */
static size_t read_cells(lua_State *L, lcall *C, ltopo *T, int arg, lsbuf *b, const char *what,
                         int sort) {
  size_t i, count;
  if (!lua_istable(L, arg))
    type_error(L, arg, lua_pushfstring(L, "table (a list of %s)", what));
  count = compat_rawlen(L, arg);
  if (count == 0) arg_error(L, arg, lua_pushfstring(L, "%s must be a non-empty list", what));
  b->nodes = (int32_t *)sbuf_grow(L, C->M, b->nodes, &b->nodes_cap, count, sizeof(int32_t));
  for (i = 0; i < count; i++) {
    lua_rawgeti(L, arg, (int)i + 1);
    b->nodes[i] = T->cls->list_node(L, T, arg, lua_gettop(L), what, i);
    lua_pop(L, 1);
  }
  if (sort) qsort(b->nodes, count, sizeof(int32_t), cmp_id);
  return count;
}

/* The most goals a list may hold (a list longer than the topology has
** nodes repeats some; this bound keeps 2 * n ids addressable). */
#define GOALS_MAX 0x3fffffff

/* Reads the list of goals (the value at v, for argument arg: find_nearest's
** goals, or options.goals) into b->nodes: the ids as listed, then the same
** sorted after them (2 * n ids); returns n.  Raw reads: no Lua code runs,
** and nothing reads the caller's table again (a callback may change it:
** the answer is for the list as it was at the call). */
static size_t read_goal_list(lua_State *L, lcall *C, ltopo *T, int arg, int v, lsbuf *b) {
  size_t i, count;
  if (!lua_istable(L, v)) {
    const char *got = describe(L, v);
    arg_error(L, arg, lua_pushfstring(L, "goals must be a non-empty list of %s, got %s", T->grid ? "cells {x, y}" : "node ids", got));
  }
  count = compat_rawlen(L, v);
  if (count == 0) arg_error(L, arg, "goals must be a non-empty list");
  if (count > GOALS_MAX) arg_error(L, arg, "goals: too many (at most 2^30 - 1)");
  b->nodes = (int32_t *)sbuf_grow(L, C->M, b->nodes, &b->nodes_cap, 2 * count, sizeof(int32_t));
  for (i = 0; i < count; i++) {
    lua_rawgeti(L, v, (int)i + 1);
    b->nodes[i] = T->cls->list_node(L, T, arg, lua_gettop(L), "goals", i);
    lua_pop(L, 1);
  }
  memcpy(b->nodes + count, b->nodes, count * sizeof(int32_t));
  qsort(b->nodes + count, count, sizeof(int32_t), cmp_id);
  return count;
}

/* The options of a search that is a distance search underneath (the
** distances options but direction). */
static void parse_goal_options(lua_State *L, lcall *C, ltopo *T, int optarg, lsbuf *b, lopts *o,
                               int32_t start) {
  parse_options(L, C, T, 1, optarg, b, o, start, start, FOR_DIST);
  if (given(o, "direction"))
    arg_error(L, optarg, lua_pushfstring(L, "option \"direction\" does not apply to %s", fname_of(L)));
}

/* The fail of a distance search that found no goal: "max_cost" when a
** budget was given, "unreachable" otherwise. */
static int goals_fail(const lopts *o) {
  return o->q.max_cost < HUGE_VAL ? ASTAR_MAX_COST : ASTAR_UNREACHABLE;
}

/* nil, reason, stats for a search to several goals that ended with status. */
static int push_no_goal(lua_State *L, ltopo *T, lsbuf *b, const lopts *o, int status) {
  lua_pushnil(L);
  lua_pushstring(L, astar_status_name(status));
  lua_createtable(L, 0, 3);
  push_stats(L, T, b->s, o);
  return 3;
}

/* The 1-based index in the goals as listed (b->nodes[0..n)) of the first
** entry naming `goal`. */
static size_t goal_index(const lsbuf *b, size_t n, int32_t goal) {
  size_t i;
  for (i = 0; i < n && b->nodes[i] != goal; i++) {
  }
  return i + 1;
}

/* Pushes the path to `goal` (path.goal: its index in the goals as listed;
** stats.expanded: `expanded`, the expansions up to the goal's).  The goal
** lists in b->nodes are spent (push_path writes the path there). */
static int push_goal_path(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const lopts *o,
                          int32_t goal, uint64_t expanded) {
  size_t idx = goal_index(b, o->ngoals, goal);
  push_path(L, C, T, b, o, goal);
  set_int(L, "expanded", (double)expanded);
  lua_pushinteger(L, (lua_Integer)idx);
  lua_setfield(L, -2, "goal");
  return 1;
}

/* Up to this many goals, a query jump point search serves runs one search
** per goal instead of one Dijkstra search (see nearest_by_searches). */
#define NEAREST_SEARCHES_MAX 16

/* A goal and the least cost a path to it can have. */
typedef struct goal_bound {
  double bound;
  int32_t goal;
} goal_bound;

static int cmp_bound(const void *a, const void *b) {
  const goal_bound *x = (const goal_bound *)a, *y = (const goal_bound *)b;
  if (x->bound != y->bound) return x->bound < y->bound ? -1 : 1;
  return cmp_id(&x->goal, &y->goal);
}

/*
** The nearest goal on a grid query jump point search serves (uniform costs:
** every path costs at least the octile / Manhattan distance between its
** ends): one jump point search per goal, nearest bound first, each bounded
** by max_cost = the best cost so far, stopping once a bound reaches it.
** Returns the goal of the cheapest path (-1: none) and leaves the search
** state holding that path (the best goal's search is run again when a
** later one replaced it); *expanded: the expansions of all of them.
*/
static int32_t nearest_by_searches(lua_State *L, lcall *C, ltopo *T, lsbuf *b, lopts *o,
                                   int32_t start, size_t n, uint64_t *expanded) {
  astar_grid *gr = T->grid;
  int32_t w = astar_grid_width(gr), best = -1, last = -1;
  double user_max = o->q.max_cost, best_cost = HUGE_VAL;
  goal_bound *gb;
  size_t i;
  int rc;
  /* the bounds, in the smoothing scratch (two doubles a goal hold one
  ** goal_bound: a double and an int32_t) */
  b->work = (double *)sbuf_grow(L, C->M, b->work, &b->work_cap, 2 * n, sizeof(double));
  gb = (goal_bound *)(void *)b->work;
  for (i = 0; i < n; i++) {
    gb[i].goal = b->nodes[i];
    gb[i].bound = cell_metric(gr, METRIC_STEPS, start % w, start / w, b->nodes[i] % w,
                              b->nodes[i] / w);
  }
  qsort(gb, n, sizeof(goal_bound), cmp_bound);
  *expanded = 0;
  o->q.record_visited = 0;
  for (i = 0; i < n; i++) {
    if (gb[i].bound > user_max || (best >= 0 && gb[i].bound >= best_cost)) break;
    if (i > 0 && gb[i].goal == gb[i - 1].goal) continue; /* a repeated goal */
    o->q.start = start;
    o->q.goal = gb[i].goal;
    o->q.max_cost = best >= 0 ? best_cost : user_max;
    if ((rc = astar_search_begin(b->s, T->t, &o->q)) != ASTAR_OK ||
        (rc = astar_search_step(b->s, 0)) < 0)
      return search_error(L, T, b->s, rc), -1;
    *expanded += astar_search_stats(b->s)->expanded;
    last = gb[i].goal;
    if (rc == ASTAR_FOUND && (best < 0 || astar_search_g(b->s, gb[i].goal) < best_cost)) {
      best = gb[i].goal;
      best_cost = astar_search_g(b->s, best);
    }
  }
  o->q.max_cost = user_max;
  if (best >= 0 && best != last) { /* the search state holds another goal's */
    o->q.goal = best;
    if ((rc = astar_search_begin(b->s, T->t, &o->q)) != ASTAR_OK ||
        (rc = astar_search_step(b->s, 0)) < 0)
      return search_error(L, T, b->s, rc), -1;
  }
  return best;
}

/*
** The search to the nearest of several goals, one search from the start
** that stops when it settles the first goal: the cheapest path to any of
** them.  On a square grid of uniform costs (where jump point search serves
** the query: octile and Manhattan distances are exact lower bounds there)
** with at most GOALS_H_MAX goals, A* whose heuristic is the least of the
** goals' distances (goals_h: admissible and consistent, as each is); else
** a Dijkstra search (a forward distance search).  Either under the query's
** costs, filter, size, max_cost and max_expansions.  goals_begin begins it;
** goals_advance expands at most n more nodes (0: to the end) in chunks,
** looking each expansion up among the sorted goals by bisection.  A query
** steps it a slice at a time; find_path and find_nearest to the end.  The
** answer does not depend on the slicing: the search expands in the same
** order, and the goal is the first settled.  When no goal lies in the
** start's component (astar_topology_connected: a proof), it is unreachable
** at once, with no search.
*/
#define GOALS_H_MAX 64

/* The A* form's heuristic: the least distance from `node` to a goal by the
** grid's step lengths on open ground (octile; Manhattan under rule never),
** as cell_metric measures it; `goal` is not read. */
static int goals_h(void *ctx, int32_t node, int32_t goal, double *h) {
  const goal_search *gs = (const goal_search *)ctx;
  int32_t w = astar_grid_width(gs->gr), x = node % w, y = node / w;
  double best = HUGE_VAL;
  size_t i;
  (void)goal;
  for (i = 0; i < gs->n; i++) {
    double d = cell_metric(gs->gr, METRIC_STEPS, x, y, gs->ids[i] % w, gs->ids[i] / w);
    if (d < best) best = d;
  }
  *h = best;
  return 0;
}

static int goals_begin(astar_search *s, ltopo *T, lopts *o, goal_search *gs) {
  size_t i;
  int rc;
  gs->seen = 0;
  gs->goal = -1;
  gs->none = 1;
  gs->gr = NULL;
  for (i = 0; i < o->ngoals && gs->none; i++) {
    if ((rc = astar_topology_connected(T->t, o->q.start, o->goal_ids[i])) < 0) return rc;
    gs->none = rc == 0;
  }
  o->q.record_visited = 1;
  if (!gs->none && T->grid != NULL && o->ngoals <= GOALS_H_MAX &&
      astar_jps_refusal(T->t, &o->q) == NULL) {
    /* a path search toward the first goal, stopped by goals_advance at
    ** whichever it settles first; track_best keeps it going when that goal
    ** is one the unit cannot stand on or lies apart */
    astar_query q = o->q;
    gs->gr = T->grid;
    gs->ids = o->goal_ids;
    gs->n = o->ngoals;
    q.goal = o->goal_ids[0];
    q.heuristic = ASTAR_H_CALLBACK;
    q.heuristic_fn = goals_h;
    q.heuristic_ctx = gs;
    q.algorithm = ASTAR_ALGO_ASTAR;
    q.track_best = 1;
    return astar_search_begin(s, T->t, &q);
  }
  return astar_search_begin_distances(s, T->t, &o->q.start, 1, 0, &o->q);
}

/* Runs at most n expansions (0: no limit) of the search gs; returns
** SEARCHING, FOUND (gs->goal settled), the fail (UNREACHABLE, MAX_COST,
** MAX_EXPANSIONS) or an error status. */
static int goals_advance(astar_search *s, const lopts *o, goal_search *gs, uint64_t n) {
  uint64_t chunk_max = (o->trace || o->visited) ? 1 : GOALS_CHUNK;
  int rc;
  if (gs->none) return ASTAR_UNREACHABLE;
  for (;;) {
    uint64_t chunk = n == 0 || n > chunk_max ? chunk_max : n;
    const astar_stats *st = astar_search_stats(s);
    uint64_t before = st->expanded;
    size_t nv;
    const int32_t *vis;
    rc = astar_search_step(s, chunk);
    if (rc < 0) return rc;
    vis = astar_search_visited(s, &nv);
    for (; gs->seen < nv; gs->seen++)
      if (bsearch(&vis[gs->seen], o->goal_ids, o->ngoals, sizeof(int32_t), cmp_id)) {
        gs->goal = vis[gs->seen++];
        return ASTAR_FOUND;
      }
    /* the Dijkstra form: every reachable node settled; the A* form: the
    ** first goal expanded (found above) */
    if (rc == ASTAR_FOUND) return goals_fail(o);
    if (rc != ASTAR_SEARCHING) return rc;
    if (n > 0) {
      uint64_t done = st->expanded - before;
      if (done >= n) return rc;
      n -= done;
    }
  }
}

/*
** find_path(..., { goals = {...} }) and find_nearest, to the end: the
** search to the nearest goal (one jump point search per goal where that
** serves, see nearest_by_searches; else goals_begin / goals_advance) from
** o->q.start; pushes the path (path.goal) or nil, reason, stats.
*/
static int goals_find(lua_State *L, lcall *C, ltopo *T, lsbuf *b, lopts *o, int slot_cost) {
  goal_search gs;
  size_t n = o->ngoals;
  int rc;
  bridge br;
  if (T->grid != NULL && n <= NEAREST_SEARCHES_MAX && lua_isnil(L, slot_cost) && !o->trace &&
      !o->visited && o->q.max_expansions == 0 && o->q.algorithm == ASTAR_ALGO_AUTO &&
      astar_jps_refusal(T->t, &o->q) == NULL) {
    uint64_t expanded;
    int32_t goal = nearest_by_searches(L, C, T, b, o, o->q.start, n, &expanded);
    if (goal < 0) {
      push_no_goal(L, T, b, o, goals_fail(o));
      set_int(L, "expanded", (double)expanded); /* all of them, as a path's */
      return 3;
    }
    return push_goal_path(L, C, T, b, o, goal, expanded);
  }
  bridge_attach(&br, L, T, o);
  if ((rc = goals_begin(b->s, T, o, &gs)) != ASTAR_OK ||
      (rc = goals_advance(b->s, o, &gs, 0)) < 0)
    return search_error(L, T, b->s, rc);
  if (rc != ASTAR_FOUND) return push_no_goal(L, T, b, o, rc);
  return push_goal_path(L, C, T, b, o, gs.goal, gs.seen);
}

/*
** graph:find_nearest(start, goals [, opts]) / grid:find_nearest(x, y,
** goals [, opts]) -> path (path.goal: the index in goals of the goal it
** ends at) | nil, reason, stats: find_path with { goals = goals } under
** the distances options (goals_find).
*/
static int l_find_nearest(lua_State *L) {
  /* stack: 1 topology, its node arguments, the goals, the options, then
  ** the search state and the option slots */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 1);
  int na = T->cls->node_args, garg = 2 + na, optarg = garg + 1;
  int32_t start = T->cls->check_node(L, T, 2);
  size_t n;
  lsearch *S;
  lopts o;
  if (!lua_istable(L, garg)) type_error(L, garg, "table (a list of goals)");
  lua_settop(L, optarg);
  S = acquire_search(L, C, 1);
  n = read_goal_list(L, C, T, garg, garg, &S->b);
  parse_goal_options(L, C, T, optarg, &S->b, &o, start);
  o.ngoals = n;
  o.goal_ids = S->b.nodes + n;
  return goals_find(L, C, T, &S->b, &o, o.slot + SLOT_COST);
}

/* ------------------------------------------------------------------------ */
/* flee                                                                       */
/* ------------------------------------------------------------------------ */

/*
** grid:flee(x, y, threats [, opts]) -> path (path.threat_distance) | nil,
** reason, stats.  Two distance searches: from the unit under the query's
** options, bounded by max_cost (the length budget), then from the threats
** over the grid's own costs (one-cell steps: how far a threat walks to
** each cell), stopped once it has settled every cell the unit reaches.  The destination is the cell the unit reaches within the budget
** whose threat distance is largest (math.huge: no threat reaches it); ties:
** the one the unit reaches cheapest (settled first).  The path is the
** unit's cheapest route there.
*/
static int l_cells_flee(lua_State *L) {
  /* stack: 1 grid, 2 x, 3 y, 4 threats, 5 options, then the search states
  ** and the option slots */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 1);
  int32_t start = check_xy(L, T, 2, NULL, NULL), best = -1;
  double bestd = -1;
  lsearch *S, *D;
  astar_query tq;
  size_t n, nv, i, seen = 0, settled = 0;
  const int32_t *vis;
  lopts o;
  bridge b;
  int rc;
  if (!lua_istable(L, 4)) type_error(L, 4, "table (a list of threats)");
  lua_settop(L, 5);
  S = acquire_search(L, C, 1);  /* 6: the unit's */
  D = acquire_search2(L, C, 1); /* 7: the threats' (kept with the grid: no state
                               ** made per call) */
  n = read_cells(L, C, T, 4, &D->b, "threats", 0);
  parse_goal_options(L, C, T, 5, &S->b, &o, start);
  o.q.record_visited = 1;
  bridge_attach(&b, L, T, &o);
  rc = astar_search_begin_distances(S->b.s, T->t, &start, 1, 0, &o.q);
  if (rc == ASTAR_OK) rc = astar_search_step(S->b.s, 0);
  if (rc < 0) return search_error(L, T, S->b.s, rc);
  (void)astar_search_visited(S->b.s, &nv); /* the unit's region: nv cells */
  /* the threats' search, stopped once it has settled every cell of the
  ** region (their costs are final then) */
  astar_query_init(&tq, 0, 0);
  tq.record_visited = 1;
  rc = astar_search_begin_distances(D->b.s, T->t, D->b.nodes, n, 0, &tq);
  while (rc >= 0 && settled < nv) {
    size_t nt;
    rc = astar_search_step(D->b.s, 1024);
    if (rc < 0) break;
    vis = astar_search_visited(D->b.s, &nt);
    for (; seen < nt; seen++)
      if (astar_search_g(S->b.s, vis[seen]) >= 0) settled++;
    if (rc != ASTAR_SEARCHING) break;
  }
  if (rc < 0) return search_error(L, T, D->b.s, rc);
  vis = astar_search_visited(S->b.s, &nv);
  for (i = 0; i < nv; i++) {
    double g = astar_search_g(D->b.s, vis[i]);
    if (g < 0) g = HUGE_VAL; /* no threat reaches it */
    if (g > bestd) {
      bestd = g;
      best = vis[i];
    }
  }
  if (best < 0) return push_no_goal(L, T, &S->b, &o, goals_fail(&o));
  o.later = 1; /* threat_distance */
  push_path(L, C, T, &S->b, &o, best);
  lua_pushnumber(L, bestd);
  lua_setfield(L, -2, "threat_distance");
  return 1;
}

/* ------------------------------------------------------------------------ */
/* a start the unit cannot stand on: the way out                              */
/* ------------------------------------------------------------------------ */

/* With start_blocked = "escape": the cell a find_path from `start` begins
** its search at.  `start` itself when the unit may stand there under the
** query (or the topology is a graph); otherwise the nearest cell where it
** may, by the lattice's step lengths on open ground (octile; Manhattan for
** rule never; hex steps), ties the smaller id; `start` when there is none
** (the search then says unreachable). */
static int32_t escape_exit(lua_State *L, ltopo *T, const lopts *o, int32_t start) {
  int32_t w, best;
  double d;
  if (!o->escape || T->grid == NULL) return start;
  w = astar_grid_width(T->grid);
  if (o->q.size > 1) check_status(L, astar_grid_clearance(T->grid, start % w, start / w));
  if (cell_fits(T->grid, &o->q, 1, start % w, start / w)) return start;
  best = ring_nearest(T->grid, &o->q, 1, METRIC_STEPS, start % w, start / w, HUGE_VAL, &d);
  return best < 0 ? start : best;
}

/* Puts the escape leg in front of the path on top (found from `exit`):
** the cells from `start` to `exit` by a shortest route of the lattice
** (each step the neighbour nearest `exit`), priced by step length (1, or
** astar.DIAGONAL for a diagonal; 1 a hex step) whatever the cells' costs:
** nodes, cost, length, and points when the path has them; path.escape is
** the number of steps of the leg.  The leg's cells go to b->links (the
** path's links are used by then). */
static void escape_prepend(lua_State *L, lcall *C, ltopo *T, lsbuf *b, int32_t start,
                           int32_t exit) {
  astar_grid *gr = T->grid;
  int32_t w = astar_grid_width(gr), cur = start, nb[16], k, j, len = 0, old, i;
  int pidx = lua_gettop(L);
  double leg = 0;
  while (cur != exit) {
    int32_t cx = cur % w, cy = cur / w, bx = -1, by = -1;
    double bd = HUGE_VAL, d;
    k = astar_grid_neighbours(gr, cx, cy, nb);
    for (j = 0; j < k; j++) {
      d = cell_metric(gr, METRIC_STEPS, nb[2 * j], nb[2 * j + 1], exit % w, exit / w);
      if (bx < 0 || d < bd - DIST_TOL(bd)) {
        bd = d;
        bx = nb[2 * j];
        by = nb[2 * j + 1];
      }
    }
    b->links = (int32_t *)sbuf_grow(L, C->M, b->links, &b->links_cap, (size_t)len + 1,
                                    sizeof(int32_t));
    b->links[len++] = cur;
    leg += cell_metric(gr, METRIC_STEPS, cx, cy, bx, by);
    cur = by * w + bx;
  }
  /* nodes: the leg, then the path's */
  lua_getfield(L, pidx, "nodes");
  old = (int32_t)compat_rawlen(L, -1);
  lua_createtable(L, len + old, 0);
  for (i = 0; i < len; i++) {
    lua_pushinteger(L, (lua_Integer)b->links[i] + 1);
    lua_rawseti(L, -2, i + 1);
  }
  for (i = 1; i <= old; i++) {
    lua_rawgeti(L, -2, i);
    lua_rawseti(L, -2, len + i);
  }
  lua_setfield(L, pidx, "nodes");
  lua_pop(L, 1);
  lua_getfield(L, pidx, "cost");
  lua_pushnumber(L, leg + lua_tonumber(L, -1));
  lua_setfield(L, pidx, "cost");
  lua_getfield(L, pidx, "length");
  lua_pushnumber(L, leg + lua_tonumber(L, -1));
  lua_setfield(L, pidx, "length");
  lua_pop(L, 2);
  lua_pushinteger(L, len);
  lua_setfield(L, pidx, "escape");
  /* points: the leg's cells, then the path's */
  lua_getfield(L, pidx, "points");
  if (lua_istable(L, -1)) {
    old = (int32_t)compat_rawlen(L, -1);
    push_points(L, T, b->links, NULL, len);
    for (i = 1; i <= old; i++) {
      lua_rawgeti(L, -2, i);
      lua_rawseti(L, -2, len + i);
    }
    lua_setfield(L, pidx, "points");
  }
  lua_pop(L, 1);
}
