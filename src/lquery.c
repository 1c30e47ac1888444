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
** begins again on the changed map at its next step (on_change = "restart",
** counted in stats.restarts), or ends with the status "changed"
** (on_change = "fail").  During a step the topology and the fields are
** locked, so nothing changes under a running search.
*/

#define QUERY_MT "astar.Query"

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
  uint32_t version;                         /* the topology's version at begin */
  uint32_t penalty_version, forbid_version; /* the fields' at begin */
  int dist;                                 /* a distances query (distances_query) */
  size_t nsources;                          /* its sources, in b.nodes */
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

/* graph:query(start, goal [, opts]) / grid:query(x1, y1, x2, y2 [, opts]).
** No callback runs here: the search begins on the first step. */
static int l_query(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int na = T->cls->node_args, optarg = 2 + 2 * na, qidx, i;
  int32_t start = T->cls->check_node(L, T, 2), goal = T->cls->check_node(L, T, 2 + na);
  lquery *Q;
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
  parse_options(L, C, T, 1, optarg, &Q->b, &Q->opts, start, goal, FOR_PATH | FOR_QUERY);
  lua_createtable(L, 0, 7); /* the user value */
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "topo");
  for (i = 0; i < OPT_SLOTS; i++) {
    lua_pushvalue(L, Q->opts.slot + i);
    lua_setfield(L, -2, slot_keys[i]);
  }
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
  lua_createtable(L, 0, 8); /* the user value */
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "topo");
  for (i = 0; i < OPT_SLOTS; i++) {
    lua_pushvalue(L, Q->opts.slot + i);
    lua_setfield(L, -2, slot_keys[i]);
  }
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

/* A distances query's search is current: begun, on the topology's version
** and the fields' versions of now (begun again otherwise: an edit between
** steps restarts it). */
static void dist_query_begin(lua_State *L, lquery *Q) {
  int rc;
  if (Q->begun && astar_topology_version(Q->T->t) == Q->version &&
      !(Q->opts.penalty && Q->opts.penalty->version != Q->penalty_version) &&
      !(Q->opts.forbid && Q->opts.forbid->version != Q->forbid_version))
    return;
  if (Q->begun) Q->restarts++;
  rc = astar_search_begin_distances(Q->b.s, Q->T->t, Q->b.nodes, Q->nsources, Q->opts.reverse,
                                    &Q->opts.q);
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

/* Adds stats.restarts to the statistics on top (a path or a stats table)
** when the query restarted: a query that did not answers exactly as
** find_path would. */
static void push_restarts(lua_State *L, lquery *Q) {
  if (Q->restarts == 0) return;
  lua_pushinteger(L, (lua_Integer)Q->restarts);
  lua_setfield(L, -2, "restarts");
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
  } else {
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

/* q:step([n]) -> "searching" | "found" | "unreachable" | "max_expansions" |
** "max_cost" | "changed" | "cancelled": expands at most n nodes (default:
** to the end); first begins the search again when the map changed since it
** began (on_change = "restart"), or ends the query with "changed". */
static int l_query_step(lua_State *L) {
  /* stack: 1 query, 2 the count, then the option slots from the user value */
  lcall *C = call_frame(L);
  lquery *Q = check_query(L, 1);
  uint64_t steps = lua_isnoneornil(L, 2) ? 0
                                         : check_count(L, 2, 2, "n", COUNT_MAX, COUNT_MAX_TEXT);
  ltopo *T = Q->T;
  int rc;
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
  /* (a distances query begins again by itself: dist_query_begin) */
  if (!Q->dist && ((Q->begun && query_changed(Q)) || stale_heuristic(L, Q))) {
    /* a precomputed heuristic built for the old map cannot guide a search
    ** of the new one: such a query ends "changed" in either mode */
    if (Q->opts.on_change == ON_CHANGE_FAIL || stale_heuristic(L, Q)) {
      Q->changed = 1;       /* final, like any outcome */
      Q->state = QS_FAILED; /* until the snapshot is made */
      query_snapshot(L, C, Q, 1);
      Q->state = QS_DONE;
      lua_pushliteral(L, "changed");
      return 1;
    }
    Q->begun = 0; /* the same query, on the new map */
    Q->restarts++;
  }
  /* failed unless the step returns: an error raised from here on (a
  ** callback's) leaves the search half done, and the query says so */
  Q->state = QS_FAILED;
  if (Q->dist) dist_query_begin(L, Q);
  if (!Q->begun) {
    if (Q->opts.any_angle) theta_begin(L, C, T, &Q->b, &Q->opts);
    else if ((rc = astar_search_begin(Q->b.s, T->t, &Q->opts.q)) != ASTAR_OK) {
      /* "jps", and the map gained what rules it out since the query began */
      const char *why = astar_jps_refusal(T->t, &Q->opts.q);
      if (rc == ASTAR_EINVAL && Q->opts.q.algorithm == ASTAR_ALGO_JPS && why)
        return raise_error(L, "algorithm \"jps\" does not apply to this query any more (%s)", why);
      return search_error(L, T, Q->b.s, rc);
    }
    Q->begun = 1;
    Q->version = astar_topology_version(T->t);
    if (Q->opts.penalty) Q->penalty_version = Q->opts.penalty->version;
    if (Q->opts.forbid) Q->forbid_version = Q->opts.forbid->version;
  }
  if (Q->opts.any_angle) rc = theta_step(L, T, &Q->b, steps);
  else if ((rc = astar_search_step(Q->b.s, steps)) < 0) return search_error(L, T, Q->b.s, rc);
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
  const astar_stats *st = Q->b.s ? astar_search_stats(Q->b.s) : NULL;
  lua_pushfstring(L, "astar.Query (%s, %d expanded)", state, st ? (int)st->expanded : 0);
  return 1;
}
