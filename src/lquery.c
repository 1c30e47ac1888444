/*
** lquery.c -- time-sliced queries: a search that a game steps a little
** every frame, from any coroutine.  Included by lastar.c.
**
** A query owns its search state and its parsed options.  Its user value
** holds { topo =, h =, c =, penalty =, forbid =, hobj =, result = }: the
** Lua values the search reads stay alive as long as the query, and a
** finished query keeps a snapshot of its outcome (later changes to the
** topology must not rewrite an answer already given).
**
** While a step runs, the query is held and locked (lobject.c): "stepping"
** is exactly o.locks > 0, which the protected call resets whatever
** happens.  cancel() from inside the step (a callback, a finalizer) takes
** effect when the step ends: the step returns what it did, and the query
** is cancelled from then on (its memory freed).  A query whose topology is
** closed is cancelled: its step returns "cancelled".
**
** Changes between steps are expected, not errors: a query whose topology
** (or a penalty or forbid field it reads) changed since its search began
** is repaired at its next step (on_change = "repair", the default:
** astar_search_repair reuses the search, counted in stats.repairs), or
** begins again on the changed map when it cannot be repaired or was asked
** to (on_change = "restart", counted in stats.restarts), or ends with the
** status "changed" (on_change = "fail").  During a step the topology and
** the fields are locked, so nothing changes under a running search.
**
** A step's budget is a count of expansions, a time (seconds, on the
** monotonic clock), or both; the repair is part of the step, inside its
** time.  A timed step expands in chunks, reading the clock after each: a
** chunk is sized from the query's measured time per expansion to take at
** most half of the time left, so the step stops at most about one
** expansion past its deadline (an expansion's own cost is bounded: jps.c).
*/

#define QUERY_MT "astar.Query"

#include "thread.h"

/* A timed step's chunks: the first when the query has no measure of its
** expansions yet, and the largest. */
#define QUERY_CHUNK_FIRST 1
#define QUERY_CHUNK_MAX 4096

/* The change log a query's repair reads (lfield.c's size: every grid of
** the binding keeps it, lcells.c). */
#define QUERY_CHANGES FIELD_CHANGE_LOG

enum { QS_RUNNING,
       QS_DONE,
       QS_CANCELLED,
       QS_FAILED };

/* The user value's names for the option slots (SLOT_ order). */
static const char *const slot_keys[OPT_SLOTS] = {"h", "c", "penalty", "forbid", "hobj"};

typedef struct lquery {
  lobj o;
  lsbuf b;                                  /* the search and its scratch */
  lopts opts;                               /* parsed at creation (slots: see step) */
  bridge br;                                /* the core points at it between steps */
  ltopo *T;                                 /* kept alive by the user value */
  int state;                                /* QS_* */
  int status;                               /* the last core status */
  int begun;                                /* the search began (on the first step) */
  int cancelled;                            /* cancel() arrived during a step */
  int changed;                              /* ended by a change (on_change = "fail") */
  uint32_t restarts;                        /* searches begun again after a change */
  uint32_t repairs;                         /* searches repaired after a change */
  uint32_t version;                         /* the topology's version at begin */
  uint32_t penalty_version, forbid_version; /* the fields' at begin */
  int dist;                                 /* a distances query (distances_query) */
  size_t nsources;                          /* its sources, in b.nodes */
  double per_exp;                           /* seconds per expansion, measured (0: not yet) */
  goal_search gs;                           /* goals = {...}: the search's progress */
} lquery;

static void query_release(lobj *o) { sbuf_free(o->M, &((lquery *)o)->b); }

static lquery *check_query(lua_State *L, int idx) {
  return (lquery *)check_ud(L, idx, QUERY_MT);
}

/* A running query whose topology was closed is cancelled. */
static void query_sync(lquery *Q) {
  if (Q->state == QS_RUNNING && Q->T->o.closed) {
    Q->state = QS_CANCELLED;
    obj_close(&Q->o);
  }
}

static const char *query_state_name(lquery *Q) {
  if (Q->o.locks > 0) return "searching"; /* asked from its own step */
  query_sync(Q);
  if (Q->state == QS_CANCELLED) return "cancelled";
  if (Q->state == QS_FAILED) return "failed";
  if (Q->dist) return Q->status == ASTAR_FOUND ? "done" : "searching";
  if (Q->changed) return "changed";
  return astar_status_name(Q->status);
}

/* Pushes a copy of the own entries of options.costs (the options table
** at arg), for the tags the topology gains after the query was made
** (query_refresh_tags); nil when there is none. */
static void costs_copy(lua_State *L, int arg) {
  int t;
  if (lua_isnoneornil(L, arg)) {
    lua_pushnil(L);
    return;
  }
  lua_getfield(L, arg, "costs");
  if (!lua_istable(L, -1)) return; /* nil: parse_options checked it */
  t = lua_gettop(L);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, t + 1);
  }
  lua_remove(L, t);
}

/* The query's tag factors for the tags its topology gained since it was
** made (set_tag with a new name): read from its copy of options.costs, so
** { mud = false } forbids mud that appears after the query began. */
static void query_refresh_tags(lua_State *L, lcall *C, lquery *Q, int qidx) {
  int top = lua_gettop(L), costs, names;
  int32_t ntags, i, old = Q->opts.q.tag_count;
  if (Q->opts.q.tag_factor == NULL) return;
  compat_getuv(L, qidx);
  lua_getfield(L, top + 1, "costs");
  costs = lua_gettop(L);
  lua_getfield(L, top + 1, "topo");
  compat_getuv(L, -1);
  lua_getfield(L, -1, "names");
  names = lua_gettop(L);
  ntags = (int32_t)compat_rawlen(L, names);
  if (ntags + 1 > old && lua_istable(L, costs)) {
    Q->b.tagf = (double *)sbuf_grow(L, C->M, Q->b.tagf, &Q->b.tagf_cap, (size_t)ntags + 1,
                                    sizeof(double));
    for (i = old; i <= ntags; i++) {
      lua_rawgeti(L, names, i);
      lua_rawget(L, costs);
      if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) Q->b.tagf[i] = ASTAR_FORBID;
      else if (lua_type(L, -1) == LUA_TNUMBER) Q->b.tagf[i] = lua_tonumber(L, -1);
      else Q->b.tagf[i] = 1.0;
      lua_pop(L, 1);
    }
    Q->opts.q.tag_factor = Q->b.tagf;
    Q->opts.q.tag_count = ntags + 1;
  }
  lua_settop(L, top);
}

/* graph:query(start, goal [, opts]) / grid:query(x1, y1, x2, y2 [, opts]);
** with opts.goals, the goal left out (as find_path: goal_layout), a query
** to the nearest of several goals (lgoals.c).  No callback runs here: the
** search begins on the first step. */
static int l_query(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int optarg, omitted, garg, qidx, i;
  int32_t start = T->cls->check_node(L, T, 2), goal;
  lquery *Q;
  garg = goal_layout(L, T, &optarg, &omitted);
  goal = omitted ? start : T->cls->check_node(L, T, garg);
  lua_settop(L, optarg);
  Q = (lquery *)compat_newud(L, sizeof(lquery));
  memset(Q, 0, sizeof *Q);
  obj_init(&Q->o, C->M, query_release);
  Q->state = QS_FAILED; /* until it is complete */
  luaL_getmetatable(L, QUERY_MT);
  lua_setmetatable(L, -2);
  qidx = lua_gettop(L);
  Q->b.s = astar_search_new(state_alloc, C->M);
  if (Q->b.s == NULL) return status_error(L, ASTAR_ENOMEM);
  parse_options(L, C, T, 1, optarg, &Q->b, &Q->opts, start, goal,
                FOR_PATH | FOR_QUERY | FOR_GOALS);
  goal_check(L, T, &Q->opts, garg, optarg, omitted);
  lua_createtable(L, 0, 8); /* the user value */
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "topo");
  for (i = 0; i < OPT_SLOTS; i++) {
    lua_pushvalue(L, Q->opts.slot + i);
    lua_setfield(L, -2, slot_keys[i]);
  }
  costs_copy(L, optarg);
  lua_setfield(L, -2, "costs");
  compat_setuv(L, qidx);
  Q->T = T;
  Q->status = ASTAR_SEARCHING;
  Q->state = QS_RUNNING;
  lua_pushvalue(L, qidx);
  return 1;
}

/*
** graph:distances_query(sources [, opts]) / grid:distances_query({{x, y},
** ...} [, opts]): distances computed a slice at a time.  The same sources
** and options as distances (checked here); the search begins on the first
** step, and begins again when the topology (or a penalty or forbid field)
** changed between steps: the result is always the distances of the map as
** it is when the query finishes.
*/
static int l_distances_query(lua_State *L) {
  /* stack: 1 topology, 2 sources, 3 options, 4 the query, then the option
  ** slots */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int qidx, i;
  lquery *Q;
  if (!lua_istable(L, 2)) type_error(L, 2, "table (a list of sources)");
  lua_settop(L, 3);
  Q = (lquery *)compat_newud(L, sizeof(lquery));
  memset(Q, 0, sizeof *Q);
  obj_init(&Q->o, C->M, query_release);
  Q->state = QS_FAILED; /* until it is complete */
  Q->dist = 1;
  luaL_getmetatable(L, QUERY_MT);
  lua_setmetatable(L, -2);
  qidx = lua_gettop(L);
  Q->b.s = astar_search_new(state_alloc, C->M);
  if (Q->b.s == NULL) return status_error(L, ASTAR_ENOMEM);
  Q->nsources = read_sources(L, C, T, 2, &Q->b);
  parse_options(L, C, T, 1, 3, &Q->b, &Q->opts, 0, 0, FOR_DIST);
  lua_createtable(L, 0, 9); /* the user value */
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "topo");
  for (i = 0; i < OPT_SLOTS; i++) {
    lua_pushvalue(L, Q->opts.slot + i);
    lua_setfield(L, -2, slot_keys[i]);
  }
  costs_copy(L, 3);
  lua_setfield(L, -2, "costs");
  options_copy(L, 3); /* for the field's update() */
  lua_setfield(L, -2, "options");
  compat_setuv(L, qidx);
  Q->T = T;
  Q->version = astar_topology_version(T->t);
  Q->status = ASTAR_SEARCHING;
  Q->state = QS_RUNNING;
  lua_pushvalue(L, qidx);
  return 1;
}

/* Begins a distances query's search (on its first step, and again when
** a change could not be repaired). */
static void dist_query_begin(lua_State *L, lquery *Q) {
  int rc = astar_search_begin_distances(Q->b.s, Q->T->t, Q->b.nodes, Q->nsources,
                                        Q->opts.reverse, &Q->opts.q);
  if (rc != ASTAR_OK) search_error(L, Q->T, Q->b.s, rc);
  Q->begun = 1;
  Q->version = astar_topology_version(Q->T->t);
  if (Q->opts.penalty) Q->penalty_version = Q->opts.penalty->version;
  if (Q->opts.forbid) Q->forbid_version = Q->opts.forbid->version;
}

/* Stores a finished distances query's result in its user value, as
** query_snapshot does: the field (grids, repairable with update()) or
** dist, toward (graphs). */
static void dist_query_snapshot(lua_State *L, lquery *Q, int qidx) {
  int i, n, top = lua_gettop(L), tidx;
  compat_getuv(L, qidx);
  lua_getfield(L, -1, "topo");
  tidx = lua_gettop(L);
  n = Q->T->cls->push_distances(L, Q->T, tidx, Q->b.s, Q->opts.reverse);
  if (n == 1 && lua_type(L, -1) == LUA_TUSERDATA) {
    lua_getfield(L, top + 1, "options");
    field_remember(L, (lfield *)lua_touserdata(L, -2), lua_gettop(L) - 1, &Q->b, Q->nsources,
                   lua_gettop(L), &Q->opts);
    lua_pop(L, 1);
  }
  lua_createtable(L, n, 1);
  for (i = 1; i <= n; i++) {
    lua_pushvalue(L, tidx + i);
    lua_rawseti(L, -2, i);
  }
  lua_pushinteger(L, n);
  lua_setfield(L, -2, "n");
  lua_setfield(L, top + 1, "result");
  lua_settop(L, top);
}

/* Pushes the values the query's search reads, from its user value, into
** fresh slots, and holds what they name; returns the first slot. */
static int query_slots(lua_State *L, lcall *C, lquery *Q, int qidx) {
  int i, first;
  compat_getuv(L, qidx);
  first = lua_gettop(L) + 1;
  for (i = 0; i < OPT_SLOTS; i++) lua_getfield(L, first - 1, slot_keys[i]);
  if (Q->opts.penalty) hold(L, C, &Q->opts.penalty->o, 1);
  if (Q->opts.forbid) hold(L, C, &Q->opts.forbid->o, 1);
  if (!lua_isnil(L, first + SLOT_HOBJ))
    hold(L, C, &((lheur *)lua_touserdata(L, first + SLOT_HOBJ))->o, 0);
  return first;
}

/* The topology or a field the search reads changed since it began. */
static int query_changed(lquery *Q) {
  return astar_topology_version(Q->T->t) != Q->version ||
         (Q->opts.penalty && Q->opts.penalty->version != Q->penalty_version) ||
         (Q->opts.forbid && Q->opts.forbid->version != Q->forbid_version);
}

/* The query's heuristic object (landmarks, clusters) no longer serves its
** topology: built for a version before a change. */
static int stale_heuristic(lua_State *L, lquery *Q) {
  lheur *H = (lheur *)lua_touserdata(L, Q->opts.slot + SLOT_HOBJ);
  return H != NULL && H->tab != NULL && !astar_table_serves(H->tab, Q->T->t);
}

/* Adds stats.restarts and stats.repairs to the statistics on top (a path
** or a stats table) when the query restarted or was repaired: a query that
** was neither answers exactly as find_path would. */
static void push_restarts(lua_State *L, lquery *Q) {
  if (Q->restarts > 0) {
    lua_pushinteger(L, (lua_Integer)Q->restarts);
    lua_setfield(L, -2, "restarts");
  }
  if (Q->repairs > 0) {
    lua_pushinteger(L, (lua_Integer)Q->repairs);
    lua_setfield(L, -2, "repairs");
  }
}

/* Stores the outcome of a finished query in its user value (result = {n =
** count, ...}). */
static void query_snapshot(lua_State *L, lcall *C, lquery *Q, int qidx) {
  int i, n, top = lua_gettop(L);
  if (Q->changed) { /* nil, "changed", stats */
    lua_pushnil(L);
    lua_pushliteral(L, "changed");
    lua_createtable(L, 0, 5);
    if (Q->opts.any_angle && Q->b.th) push_theta_stats(L, Q->b.th, &Q->opts);
    else push_stats(L, Q->T, Q->b.s, &Q->opts);
    n = 3;
  } else if (Q->opts.ngoals > 0) {
    n = Q->status == ASTAR_FOUND
            ? push_goal_path(L, C, Q->T, &Q->b, &Q->opts, Q->gs.goal, Q->gs.seen)
            : push_no_goal(L, Q->T, &Q->b, &Q->opts, Q->status);
  } else {
    Q->opts.later = (Q->restarts > 0) + (Q->repairs > 0); /* push_restarts' */
    n = push_outcome(L, C, Q->T, &Q->b, &Q->opts, Q->status);
  }
  push_restarts(L, Q);
  lua_createtable(L, n, 1);
  for (i = 1; i <= n; i++) {
    lua_pushvalue(L, top + i);
    lua_rawseti(L, -2, i);
  }
  lua_pushinteger(L, n);
  lua_setfield(L, -2, "n");
  compat_getuv(L, qidx);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "result");
  lua_settop(L, top);
}

/* A step's budget: at most n expansions (0: no limit) and at most `time`
** seconds (0: no limit). */
typedef struct qbudget {
  uint64_t n;
  double time;
  double deadline; /* with a time: the clock's reading when the step ends */
} qbudget;

/* Reads step's argument 2: nothing (to the end), a count, or a table {
** n = count, time = seconds } with at least one of them. */
static qbudget check_budget(lua_State *L) {
  qbudget b = {0, 0, 0};
  if (lua_isnoneornil(L, 2)) return b;
  if (!lua_istable(L, 2)) {
    b.n = check_count(L, 2, 2, "n", COUNT_MAX, COUNT_MAX_TEXT);
    return b;
  }
  lua_pushnil(L);
  while (lua_next(L, 2)) { /* no key but n and time: a typo never goes unnoticed */
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    if (k == NULL || (strcmp(k, "n") != 0 && strcmp(k, "time") != 0))
      arg_error(L, 2, lua_pushfstring(L, "budget keys are n and time, got %s", describe(L, -2)));
    lua_pop(L, 1);
  }
  lua_getfield(L, 2, "n");
  if (!lua_isnil(L, -1)) b.n = check_count(L, 2, lua_gettop(L), "n", COUNT_MAX, COUNT_MAX_TEXT);
  lua_getfield(L, 2, "time");
  if (!lua_isnil(L, -1)) {
    double t = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
    if (lua_type(L, -1) != LUA_TNUMBER || !(t > 0) || !isfinite(t))
      arg_error(L, 2, lua_pushfstring(L, "time must be a finite number of seconds > 0, got %s", describe(L, -1)));
    b.time = t;
  }
  if (b.n == 0 && b.time == 0) arg_error(L, 2, "budget table needs n or time");
  lua_pop(L, 2);
  return b;
}

/* Repairs the query's search after the changes since its version
** (repair.c): the grid's changed cells and the boxes of the changes of its
** penalty and forbid fields (lfield.c: a cell whose penalty or permission
** changed is a changed cell to the repair, as one whose cost changed), or
** the graph's changed nodes and edges (its log starts with its first
** query: l_query_step).  0 when it cannot (then it begins again):
** any-angle searches, a log that does not reach back (the grid's
** 4096 cells, a field's last 16 changes), more changed cells than the log
** holds (a field's fill), or a search the core cannot repair
** (astar_search_repair's EINVAL). */
static int query_repair(lua_State *L, lcall *C, lquery *Q, size_t *reset) {
  ltopo *T = Q->T;
  size_t n = 0;
  int rc;
  lfield *pen = Q->opts.penalty, *forbid = Q->opts.forbid;
  if (Q->opts.any_angle) return 0;
  Q->b.links = (int32_t *)sbuf_grow(L, C->M, Q->b.links, &Q->b.links_cap, QUERY_CHANGES,
                                    sizeof(int32_t));
  if (T->grid == NULL ? astar_graph_changes((astar_graph *)T->impl, Q->version, Q->b.links,
                                            QUERY_CHANGES, &n) != ASTAR_OK
                      : astar_grid_changes(T->grid, Q->version, Q->b.links, QUERY_CHANGES,
                                           &n) != ASTAR_OK)
    return 0;
  if (pen && pen->version != Q->penalty_version &&
      !field_changes(pen, Q->penalty_version, Q->b.links, &n, QUERY_CHANGES))
    return 0;
  if (forbid && forbid->version != Q->forbid_version &&
      !field_changes(forbid, Q->forbid_version, Q->b.links, &n, QUERY_CHANGES))
    return 0;
  rc = astar_search_repair(Q->b.s, Q->b.links, n, &Q->opts.q, Q->dist ? Q->b.nodes : NULL,
                           Q->dist ? Q->nsources : 0, reset);
  if (rc == ASTAR_EINVAL) return 0;
  if (rc != ASTAR_OK) search_error(L, T, Q->b.s, rc);
  Q->version = astar_topology_version(T->t);
  if (pen) Q->penalty_version = pen->version;
  if (forbid) Q->forbid_version = forbid->version;
  return 1;
}

/* The chunk of a timed step with `rest` seconds left: half of it at the
** query's measured time per expansion, at least one expansion. */
static uint64_t query_chunk(const lquery *Q, double rest) {
  double f;
  if (Q->per_exp <= 0) return QUERY_CHUNK_FIRST;
  f = 0.5 * rest / Q->per_exp;
  return f < 1 ? 1 : f > QUERY_CHUNK_MAX ? QUERY_CHUNK_MAX
                                         : (uint64_t)f;
}

/* Runs the query's search within budget b; the status. */
static int query_run(lua_State *L, lquery *Q, qbudget b) {
  uint64_t left = b.n;
  double t0 = b.time > 0 ? astar_monotonic() : 0;
  int rc;
  for (;;) {
    uint64_t chunk = left, done;
    const astar_stats *st;
    uint64_t before;
    if (b.time > 0) {
      uint64_t fit = query_chunk(Q, b.deadline - t0);
      if (chunk == 0 || chunk > fit) chunk = fit;
    }
    if (Q->opts.any_angle) {
      st = astar_theta_stats(Q->b.th);
      before = st->expanded;
      rc = theta_step(L, Q->T, &Q->b, chunk);
    } else {
      st = astar_search_stats(Q->b.s);
      before = st->expanded;
      rc = Q->opts.ngoals > 0 ? goals_advance(Q->b.s, &Q->opts, &Q->gs, chunk)
                              : astar_search_step(Q->b.s, chunk);
      if (rc < 0) return search_error(L, Q->T, Q->b.s, rc);
    }
    done = st->expanded - before;
    if (b.time > 0 && done > 0) {
      /* the measure: a slower chunk raises it at once, a faster one lowers
      ** it by a quarter, so one cheap chunk does not size the next too big */
      double t1 = astar_monotonic(), e = (t1 - t0) / (double)done;
      if (e < 1e-9) e = 1e-9; /* a clock that did not move: measured all the same */
      Q->per_exp = e > Q->per_exp || Q->per_exp <= 0 ? e : 0.75 * Q->per_exp + 0.25 * e;
      t0 = t1;
    }
    if (rc != ASTAR_SEARCHING || b.time == 0) return rc;
    if (left > 0) {
      if (done >= left) return rc;
      left -= done;
    }
    /* stop at the deadline, or short of it by less than half an expansion */
    if (b.deadline - t0 < 0.5 * Q->per_exp) return rc;
  }
}

/* A query freed by cancel() leaves its search state to its topology (a
** spare, while it has room for one), and a query's first search begins in
** a spare when there is one: the state's page directory (sized by the
** topology: 1 MB on a 2048 x 2048 grid) and pages are then neither freed
** nor allocated and zeroed again, query after query.  A spare keeps the
** pages its queries touched, as a topology's cached search state does; it
** is freed with the topology.  A collected query frees its own (the
** topology may be collected in the same cycle). */
static void query_leave_spare(lquery *Q) {
  ltopo *T = Q->T;
  int i;
  if (Q->o.holds > 0 || Q->o.released || Q->b.s == NULL || !Q->begun || Q->dist ||
      Q->opts.any_angle || T == NULL || T->o.closed || T->o.released || Q->o.M->closing)
    return;
  for (i = 0; i < TOPO_SPARES; i++)
    if (T->spare[i] == NULL) {
      T->spare[i] = Q->b.s;
      Q->b.s = NULL;
      return;
    }
}

static void query_take_spare(lquery *Q) {
  ltopo *T = Q->T;
  int i;
  if (Q->dist || Q->opts.any_angle || Q->restarts > 0) return;
  for (i = TOPO_SPARES - 1; i >= 0; i--)
    if (T->spare[i] != NULL) {
      astar_search_free(Q->b.s); /* never begun: its header alone */
      Q->b.s = T->spare[i];
      T->spare[i] = NULL;
      return;
    }
}

/* q:step([budget]) -> "searching" | "found" | "unreachable" |
** "max_expansions" | "max_cost" | "changed" | "cancelled": expands within
** the budget (a count, or { n =, time = }; default: to the end); first
** repairs the search when the map changed since it began (on_change =
** "repair"), begins it again ("restart", or a change that cannot be
** repaired), or ends the query with "changed" ("fail"). */
static int l_query_step(lua_State *L) {
  /* stack: 1 query, 2 the budget, then the option slots from the user value */
  lcall *C = call_frame(L);
  lquery *Q = check_query(L, 1);
  qbudget budget = check_budget(L);
  ltopo *T = Q->T;
  int rc;
  if (budget.time > 0) budget.deadline = astar_monotonic() + budget.time; /* repair included */
  if (Q->o.locks > 0) return raise_error(L, "cannot step a query while it is stepping");
  if (Q->state == QS_FAILED)
    return raise_error(L, "this query failed (an error was raised while it ran): start a new one");
  query_sync(Q);
  if (Q->state != QS_RUNNING) {
    lua_pushstring(L, query_state_name(Q));
    return 1;
  }
  hold(L, C, &Q->o, 1); /* stepping */
  hold(L, C, &T->o, 1);
  lua_settop(L, 1);
  Q->opts.slot = query_slots(L, C, Q, 1);
  bridge_attach(&Q->br, L, T, &Q->opts);
  if (!Q->dist && stale_heuristic(L, Q)) {
    /* a precomputed heuristic built for the old map cannot guide a search
    ** of the new one (it may overestimate): such a query ends "changed" */
    Q->changed = 1;
  } else if (!Q->dist && Q->begun && Q->opts.on_change == ON_CHANGE_FAIL && query_changed(Q)) {
    Q->changed = 1;
  }
  if (Q->changed) {
    Q->state = QS_FAILED; /* until the snapshot is made */
    query_snapshot(L, C, Q, 1);
    Q->state = QS_DONE; /* final, like any outcome */
    lua_pushliteral(L, "changed");
    return 1;
  }
  /* failed unless the step returns: an error raised from here on (a
  ** callback's) leaves the search half done, and the query says so */
  Q->state = QS_FAILED;
  if (!Q->begun || query_changed(Q)) query_refresh_tags(L, C, Q, 1); /* tags named since */
  if (Q->begun && query_changed(Q)) {
    size_t reset = 0;
    if ((Q->dist || Q->opts.on_change == ON_CHANGE_REPAIR) && query_repair(L, C, Q, &reset)) {
      /* the repair is this step's work too: a count budget is charged an
      ** expansion for every two cells reset (a time budget's clock runs
      ** from the step's start); one expansion is always left */
      uint64_t charge = (uint64_t)reset / 2;
      if (budget.n > 0) budget.n = budget.n > charge ? budget.n - charge : 1;
      Q->repairs++;
    } else {
      /* a jump point search cannot be repaired: one that a change reached
      ** begins again as jump point search the first time (its searches are
      ** short: beginning again costs less than an A* that repairs, which on
      ** a large map expands thousands of cells where jump points expand a
      ** few), and as A* (same answers) the next time, which the later
      ** changes repair, so edits that keep coming never make it begin again
      ** for ever */
      if (Q->opts.on_change == ON_CHANGE_REPAIR && !Q->dist && !Q->opts.any_angle &&
          Q->opts.q.algorithm == ASTAR_ALGO_AUTO && astar_search_jps(Q->b.s) && Q->restarts > 0)
        Q->opts.q.algorithm = ASTAR_ALGO_ASTAR;
      Q->begun = 0; /* the same query, on the new map */
      Q->restarts++;
    }
  }
  /* a graph logs its changes from its first query on, so that its
  ** queries repair (a graph without queries pays nothing) */
  if (!Q->begun && T->grid == NULL &&
      astar_graph_track_changes((astar_graph *)T->impl, QUERY_CHANGES) != ASTAR_OK)
    status_error(L, ASTAR_ENOMEM);
  if (!Q->begun && Q->dist) {
    dist_query_begin(L, Q);
  } else if (!Q->begun) {
    if (Q->opts.any_angle) {
      theta_begin(L, C, T, &Q->b, &Q->opts);
    } else if (Q->opts.ngoals > 0) {
      query_take_spare(Q);
      Q->opts.goal_ids = Q->b.nodes + Q->opts.ngoals;
      if ((rc = goals_begin(Q->b.s, T, &Q->opts, &Q->gs)) != ASTAR_OK)
        return search_error(L, T, Q->b.s, rc);
    } else {
      query_take_spare(Q);
      if ((rc = astar_search_begin(Q->b.s, T->t, &Q->opts.q)) != ASTAR_OK) {
        /* "jps", and the map gained what rules it out since the query began */
        const char *why = astar_jps_refusal(T->t, &Q->opts.q);
        if (rc == ASTAR_EINVAL && Q->opts.q.algorithm == ASTAR_ALGO_JPS && why)
          return raise_error(L, "algorithm \"jps\" does not apply to this query any more (%s)", why);
        why = astar_jps_plus_refusal(T->t, &Q->opts.q);
        if (rc == ASTAR_EINVAL && Q->opts.q.algorithm == ASTAR_ALGO_JPS_PLUS && why)
          return raise_error(L, "algorithm \"jps+\" does not apply to this query any more (%s)", why);
        return search_error(L, T, Q->b.s, rc);
      }
    }
    Q->begun = 1;
    Q->version = astar_topology_version(T->t);
    if (Q->opts.penalty) Q->penalty_version = Q->opts.penalty->version;
    if (Q->opts.forbid) Q->forbid_version = Q->opts.forbid->version;
  }
  if (Q->opts.ngoals > 0) Q->opts.goal_ids = Q->b.nodes + Q->opts.ngoals;
  rc = query_run(L, Q, budget);
  Q->status = rc;
  if (Q->cancelled) {        /* cancelled during this step: */
    Q->state = QS_CANCELLED; /* the step still says what it did */
  } else {
    Q->state = rc == ASTAR_SEARCHING ? QS_RUNNING : QS_DONE;
    if (Q->state == QS_DONE) {
      if (Q->dist) dist_query_snapshot(L, Q, 1);
      else query_snapshot(L, C, Q, 1);
    }
  }
  lua_pushstring(L, Q->dist ? (rc == ASTAR_FOUND ? "done" : "searching") : astar_status_name(rc));
  return 1;
}

/* q:result() -> what find_path would have returned (nil, "searching",
** stats while it runs; nil, "cancelled", {} after cancel). */
static int l_query_result(lua_State *L) {
  lcall *C = call_frame(L);
  lquery *Q = check_query(L, 1);
  int stepping = Q->o.locks > 0;
  hold(L, C, &Q->o, 0);
  if (!stepping) {
    if (Q->state == QS_FAILED)
      return raise_error(L, "this query failed (an error was raised while it ran): start a new one");
    query_sync(Q);
    if (Q->state == QS_CANCELLED) {
      lua_pushnil(L);
      lua_pushliteral(L, "cancelled");
      lua_newtable(L);
      return 3;
    }
    if (Q->state == QS_DONE) { /* the snapshot made when it finished */
      int i, n;
      compat_getuv(L, 1);
      lua_getfield(L, -1, "result");
      lua_getfield(L, -1, "n");
      n = (int)lua_tonumber(L, -1);
      lua_pop(L, 1);
      for (i = 1; i <= n; i++) lua_rawgeti(L, -i, i);
      return n;
    }
  }
  lua_pushnil(L);
  lua_pushliteral(L, "searching");
  if (Q->dist) return 2;
  lua_createtable(L, 0, 6);
  if (Q->opts.any_angle && Q->b.th) push_theta_stats(L, Q->b.th, &Q->opts);
  else push_stats(L, Q->T, Q->b.s, &Q->opts);
  push_restarts(L, Q);
  return 3;
}

/* q:cancel() and __close: stops a running query (from inside its own step
** too: then when the step ends); on a finished one only frees the search
** memory (its result stays: final statuses stick). */
static int l_query_cancel(lua_State *L) {
  lquery *Q = check_query(L, 1);
  query_leave_spare(Q);
  if (Q->o.locks > 0) {      /* from inside its own step: that */
    Q->cancelled = 1;        /* step's outcome is void, even if */
    Q->state = QS_CANCELLED; /* it finishes the query */
  } else if (Q->state == QS_RUNNING) {
    Q->state = QS_CANCELLED;
  }
  obj_close(&Q->o);
  return 0;
}

static int l_query_gc(lua_State *L) {
  lquery *Q = check_query(L, 1);
  if (Q->state == QS_RUNNING) Q->state = QS_CANCELLED;
  obj_gc(&Q->o);
  return 0;
}

static int l_query_status(lua_State *L) {
  lua_pushstring(L, query_state_name(check_query(L, 1)));
  return 1;
}

static int l_query_tostring(lua_State *L) {
  lquery *Q = check_query(L, 1);
  const char *state = query_state_name(Q);
  const astar_stats *st = Q->opts.any_angle && Q->b.th ? astar_theta_stats(Q->b.th)
                          : Q->b.s                     ? astar_search_stats(Q->b.s)
                                                       : NULL;
  lua_pushfstring(L, "astar.Query (%s, %d expanded", state, st ? (int)st->expanded : 0);
  if (Q->repairs > 0) lua_pushfstring(L, ", %d repaired", (int)Q->repairs);
  else lua_pushliteral(L, "");
  if (Q->restarts > 0) lua_pushfstring(L, ", %d restarted", (int)Q->restarts);
  else lua_pushliteral(L, "");
  lua_pushliteral(L, ")");
  lua_concat(L, 4);
  return 1;
}
