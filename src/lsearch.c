/*
** lsearch.c -- running searches: the bridge that lets the core call Lua
** heuristics and cost functions, and the searches that run to the end in
** one call (find_path, distances, audit_heuristic).  Included by lastar.c.
**
** Each of these is a protected body (lobject.c): the topology is held and
** locked for the whole call, the search state is held (a nested search
** from a callback or a finalizer gets its own), and the fields and
** heuristic objects the options name are held too.  Callbacks use plain
** lua_call: a Lua error unwinds to the protected call, which releases what
** the call held and rethrows the error unchanged; the core's state is never
** left half-written at a callback (see engine.h), so nothing leaks and
** everything stays usable.
*/

/* The context of the Lua callbacks.  The core keeps a pointer to it between
** steps, so it lives where the search does: on the C stack of a call, or in
** a query.  L and the indices are set again for every call (a query may be
** stepped from any coroutine).  On grids of cells (w > 0) the heuristic's
** arguments are pushed here, without the class's push_node, and the goal's
** coordinates are worked out once per goal, not once per call. */
typedef struct bridge {
  lua_State *L;
  ltopo *T;
  int hidx, cidx; /* the callables' stack indices */
  int32_t w;      /* a grid of cells' width (ids are y * w + x), 0 otherwise */
  int32_t goal;   /* the goal gx, gy were worked out for (-1: none yet) */
  lua_Integer gx, gy;
} bridge;

/* A grid cell's callback arguments: x, y (1-based) of id y * w + x (lcells.c) */
static int cells_push_node(lua_State *L, ltopo *T, int32_t id);

/* Raises the heuristic's error for the value on top, returned for node. */
static int bridge_bad_h(lua_State *L, bridge *b, int32_t node) {
  const char *got = describe(L, -1);
  return raise_error(L, "heuristic returned %s for %s (expected a finite number >= 0)", got,
                     b->T->cls->node_name(L, b->T, node));
}

/* The core's heuristic callback: calls the Lua heuristic on (node, goal) as
** the class shows them, and checks what comes back.  Raising is the way
** out (a longjmp to the call's protected frame): the core never asks a
** callback to abort.  Per call: the callable and the 2-4 arguments pushed,
** the call, one type test and one read of the result, the pop. */
static int bridge_heuristic(void *ctx, int32_t node, int32_t goal, double *h) {
  bridge *b = (bridge *)ctx;
  lua_State *L = b->L;
  double v;
  int n;
  lua_pushvalue(L, b->hidx);
  if (b->w > 0) {
    int32_t y = node / b->w;
    if (goal != b->goal) {
      b->goal = goal;
      b->gy = goal / b->w;
      b->gx = goal - b->gy * b->w + 1;
      b->gy += 1;
    }
    lua_pushinteger(L, node - y * b->w + 1);
    lua_pushinteger(L, y + 1);
    lua_pushinteger(L, b->gx);
    lua_pushinteger(L, b->gy);
    n = 4;
  } else {
    n = b->T->cls->push_node(L, b->T, node);
    n += b->T->cls->push_node(L, b->T, goal);
  }
  lua_call(L, n, 1);
  if (lua_type(L, -1) != LUA_TNUMBER) return bridge_bad_h(L, b, node);
  v = lua_tonumber(L, -1);
  if (!(v >= 0 && v <= DBL_MAX)) return bridge_bad_h(L, b, node); /* NaN, < 0, inf */
  lua_pop(L, 1);
  *h = v;
  return 0;
}

/* The core's cost callback: false forbids the step, a number replaces its
** cost (checked: finite and >= 0). */
static int bridge_cost(void *ctx, int32_t from, int32_t to, int32_t link, double cost,
                       double *out) {
  bridge *b = (bridge *)ctx;
  lua_State *L = b->L;
  int n;
  lua_pushvalue(L, b->cidx);
  n = b->T->cls->push_step(L, b->T, from, to, link, cost);
  lua_call(L, n, 1);
  if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
    *out = ASTAR_FORBID;
  } else {
    double v = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
    if (lua_type(L, -1) != LUA_TNUMBER || !(v >= 0) || !isfinite(v)) {
      const char *got = describe(L, -1);
      return raise_error(L,
                         "cost callback returned %s for %s (expected a finite number >= 0 or false)", got,
                         b->T->cls->step_name(L, b->T, from, to, link));
    }
    *out = v;
  }
  lua_pop(L, 1);
  return 0;
}

/* Points the query's callbacks at the bridge, for the callables in o's
** slots (nil: none).  The core calls back from the stack top the search
** starts at, so room for a callback's arguments (at most 6 values) is made
** once here, not per call. */
static void bridge_attach(bridge *b, lua_State *L, ltopo *T, lopts *o) {
  luaL_checkstack(L, 8, "callbacks");
  b->L = L;
  b->T = T;
  b->hidx = o->slot + SLOT_H;
  b->cidx = o->slot + SLOT_COST;
  b->w = T->cls->push_node == cells_push_node ? T->cells_w : 0;
  b->goal = -1;
  if (!lua_isnil(L, b->hidx)) {
    o->q.heuristic_fn = bridge_heuristic;
    o->q.heuristic_ctx = b;
  }
  if (!lua_isnil(L, b->cidx)) {
    o->q.cost_fn = bridge_cost;
    o->q.cost_ctx = b;
  }
}

/* ------------------------------------------------------------------------ */
/* find_path                                                                  */
/* ------------------------------------------------------------------------ */

/* start_blocked = "escape" (lgoals.c): where the search begins, and the
** leg from the start put in front of the path found */
static int32_t escape_exit(lua_State *L, ltopo *T, const lopts *o, int32_t start);
static void escape_prepend(lua_State *L, lcall *C, ltopo *T, lsbuf *b, int32_t start,
                           int32_t exit);

/* The search to the nearest of several goals (lgoals.c): its state between
** slices, and its parts. */
typedef struct goal_search {
  size_t seen;  /* expansions looked up so far */
  int32_t goal; /* the goal settled, -1 until then */
  int none;     /* no goal in the start's component: unreachable at once */
  /* the A* form's heuristic (goals_h): the grid, the goals (sorted ids) */
  const astar_grid *gr;
  const int32_t *ids;
  size_t n;
} goal_search;

/* Expansions between two look-ups of the visited list (one when the
** caller keeps the trace or the visited list, so they end at the goal). */
#define GOALS_CHUNK 256

static int goals_find(lua_State *L, lcall *C, ltopo *T, lsbuf *b, lopts *o, int slot_cost);
static int goals_begin(astar_search *s, ltopo *T, lopts *o, goal_search *gs);
static int goals_advance(astar_search *s, const lopts *o, goal_search *gs, uint64_t n);
static int push_goal_path(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const lopts *o,
                          int32_t goal, uint64_t expanded);
static int push_no_goal(lua_State *L, ltopo *T, lsbuf *b, const lopts *o, int status);

/* The argument of find_path's and query's options, and whether the goal
** arguments are left out (goals = {...} names the goals then): the goal's
** node arguments all nil, or the options table in their place
** (grid:find_path(x, y, opts), graph:find_path(start, opts)). */
static int goal_layout(lua_State *L, ltopo *T, int *optarg, int *omitted) {
  int na = T->cls->node_args, garg = 2 + na, i;
  *optarg = garg + na;
  if (lua_gettop(L) == garg && lua_istable(L, garg)) {
    *optarg = garg;
    *omitted = 1;
    return garg;
  }
  *omitted = lua_gettop(L) < garg ? 2 : 1; /* 2: no value there at all */
  for (i = 0; i < na; i++)
    if (!lua_isnoneornil(L, garg + i)) *omitted = 0;
  return garg;
}

/* After the options: an error naming what is missing or doubled.  A goal
** given in the arguments was read before the options (find_path, query):
** nothing to read again. */
static void goal_check(lua_State *L, ltopo *T, const lopts *o, int garg, int optarg,
                       int omitted) {
  if (o->ngoals > 0 && !omitted)
    arg_error(L, optarg, "goals cannot be combined with a goal argument (leave the goal out, or nil)");
  if (o->ngoals > 0 || !omitted) return;
  if (optarg == garg)
    arg_error(L, garg, lua_pushfstring(L, "a goal (or options.goals) expected, got %s", describe(L, garg)));
  if (omitted == 2) lua_settop(L, garg - 1); /* raising: "got no value" */
  (void)T->cls->check_node(L, T, garg);      /* raises: the goal is nil */
}

/* graph:find_path(start, goal [, opts]) / grid:find_path(x1, y1, x2, y2
** [, opts]) -> path | nil, reason, stats; with opts.goals, the goal left
** out: the path to the nearest of the goals (path.goal, lgoals.c) */
static int l_find_path(lua_State *L) {
  /* stack: 1 topology, its node arguments, the options, then the search
  ** state and the option slots */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 1);
  int optarg, omitted, garg, rc;
  int32_t start = T->cls->check_node(L, T, 2), goal;
  lsearch *S;
  lopts o;
  bridge b;
  int32_t from;
  garg = goal_layout(L, T, &optarg, &omitted);
  goal = omitted ? start : T->cls->check_node(L, T, garg);
  lua_settop(L, optarg);
  S = acquire_search(L, C, 1);
  parse_options(L, C, T, 1, optarg, &S->b, &o, start, goal,
                FOR_PATH | FOR_FIND | FOR_GOALS);
  goal_check(L, T, &o, garg, optarg, omitted);
  from = o.q.start = escape_exit(L, T, &o, start);
  if (o.ngoals > 0) {
    o.goal_ids = S->b.nodes + o.ngoals;
    rc = goals_find(L, C, T, &S->b, &o, o.slot + SLOT_COST);
  } else if (o.any_angle) {
    rc = theta_find_path(L, C, T, &S->b, &o);
  } else {
    bridge_attach(&b, L, T, &o);
    if ((rc = astar_search_begin(S->b.s, T->t, &o.q)) != ASTAR_OK ||
        (rc = astar_search_step(S->b.s, 0)) < 0)
      return search_error(L, T, S->b.s, rc);
    rc = push_outcome(L, C, T, &S->b, &o, rc);
  }
  if (from != start && rc == 1) escape_prepend(L, C, T, &S->b, start, from);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* distances                                                                  */
/* ------------------------------------------------------------------------ */

/* Reads the list of sources at arg into b->nodes; returns how many.  Raw
** reads (a list, not a table of named fields): no Lua code runs here. */
static size_t read_sources(lua_State *L, lcall *C, ltopo *T, int arg, lsbuf *b) {
  size_t i, count;
  if (!lua_istable(L, arg)) type_error(L, arg, "table (a list of sources)");
  count = compat_rawlen(L, arg);
  if (count == 0) arg_error(L, arg, "sources must be a non-empty list");
  b->nodes = (int32_t *)sbuf_grow(L, C->M, b->nodes, &b->nodes_cap, count, sizeof(int32_t));
  for (i = 0; i < count; i++) {
    lua_rawgeti(L, arg, (int)i + 1);
    b->nodes[i] = T->cls->list_node(L, T, arg, lua_gettop(L), "sources", i);
    lua_pop(L, 1);
  }
  return count;
}

/* Pushes a copy of the options table at arg (nil: an empty table): the
** distances options by name, and the costs table one level deep, so later
** changes to the caller's tables leave the field's costs as they were. */
static void options_copy(lua_State *L, int arg) {
  int i;
  lua_newtable(L);
  if (lua_isnoneornil(L, arg)) return;
  for (i = 0; i < COUNT_OF(options); i++) {
    if (!(options[i].applies & FOR_DIST)) continue;
    lua_getfield(L, arg, options[i].name);
    if (lua_istable(L, -1) && strcmp(options[i].name, "costs") == 0) {
      int t = lua_gettop(L);
      lua_newtable(L);
      lua_pushnil(L);
      while (lua_next(L, t)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
      }
      lua_replace(L, t);
    }
    lua_setfield(L, -2, options[i].name);
  }
}

/* What field:update() needs of the distances that made the field at fidx:
** the sources (a string of int32 ids in its user value), a copy of the
** options, the option fields' versions. */
static void field_remember(lua_State *L, lfield *F, int fidx, lsbuf *b, size_t n, int optarg,
                           const lopts *o) {
  compat_getuv(L, fidx);
  lua_pushlstring(L, (const char *)b->nodes, n * sizeof(int32_t));
  lua_setfield(L, -2, "sources");
  options_copy(L, optarg);
  lua_setfield(L, -2, "options");
  lua_pop(L, 1);
  F->penalty = o->penalty;
  F->forbid = o->forbid;
  if (F->penalty) F->penalty_version = F->penalty->version;
  if (F->forbid) F->forbid_version = F->forbid->version;
}

/* graph:distances(sources [, opts]) -> dist, toward
** grid:distances({{x, y}, ...} [, opts]) -> field (with next_step) */
static int l_distances(lua_State *L) {
  /* stack: 1 topology, 2 sources, 3 options, 4 the search state, then the
  ** option slots */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 1);
  lsearch *S;
  lopts o;
  bridge b;
  size_t n;
  int rc;
  if (!lua_istable(L, 2)) type_error(L, 2, "table (a list of sources)");
  lua_settop(L, 3);
  S = acquire_search(L, C, 1); /* 4 */
  n = read_sources(L, C, T, 2, &S->b);
  parse_options(L, C, T, 1, 3, &S->b, &o, 0, 0, FOR_DIST);
  bridge_attach(&b, L, T, &o);
  if ((rc = astar_search_begin_distances(S->b.s, T->t, S->b.nodes, n, o.reverse, &o.q)) !=
          ASTAR_OK ||
      (rc = astar_search_step(S->b.s, 0)) < 0)
    return search_error(L, T, S->b.s, rc);
  rc = T->cls->push_distances(L, T, 1, S->b.s, o.reverse);
  if (lua_type(L, -1) == LUA_TUSERDATA) field_remember(L, (lfield *)lua_touserdata(L, -1),
                                                       lua_gettop(L), &S->b, n, 3, &o);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* repairable distance fields                                                 */
/* ------------------------------------------------------------------------ */

/* The share of cells changed beyond which a repair costs about what a
** fresh field does: then update() recomputes. */
#define FIELD_REPAIR_MAX(count) \
  ((size_t)(count) / 64 + 16 < FIELD_CHANGE_LOG ? (size_t)(count) / 64 + 16 : FIELD_CHANGE_LOG)

/*
** field:update() -> "current" | "repaired" | "rebuilt": brings a stale
** distance field up to date in place, with the sources and options it was
** made with.  The costs equal a fresh grid:distances exactly.  It repairs
** (astar_grid_repair_distances) from the grid's change log and the boxes
** of its penalty and forbid fields' changes; it recomputes when the logs
** do not reach back far enough, when many cells changed, with a cost
** callback (whose costs may have changed anywhere), or when most of the
** field hangs on the changes (astar_grid_repair_distances' EINVAL).
*/
static int l_field_update(lua_State *L) {
  /* stack: 1 field, 2 its user value, 3 the grid, 4 sources, 5 options,
  ** 6 the search state, then the option slots */
  lcall *C = call_frame(L);
  lfield *F = check_field(L, 1);
  ltopo *T;
  lsearch *S;
  lopts o;
  bridge b;
  size_t n, len, nch = 0;
  const char *src;
  int rc, full;
  int32_t count;
  if (!F->distances) return raise_error(L, "update needs a field made by grid:distances");
  if (F->o.locks > 0) return raise_error(L, "cannot call 'update': field is being searched");
  T = F->grid;
  if (T == NULL || T->o.closed) closed_error(L, "grid");
  lua_settop(L, 1);
  compat_getuv(L, 1);         /* 2 */
  lua_getfield(L, 2, "grid"); /* 3 */
  hold(L, C, &T->o, 1);       /* no edit while it is repaired */
  hold(L, C, &F->o, 1);
  if (!field_stale(F)) {
    lua_pushliteral(L, "current");
    return 1;
  }
  lua_getfield(L, 2, "sources"); /* 4 */
  lua_getfield(L, 2, "options"); /* 5 */
  S = acquire_search(L, C, 3);   /* 6 */
  src = lua_tolstring(L, 4, &len);
  n = len / sizeof(int32_t);
  S->b.nodes = (int32_t *)sbuf_grow(L, C->M, S->b.nodes, &S->b.nodes_cap, n, sizeof(int32_t));
  memcpy(S->b.nodes, src, n * sizeof(int32_t));
  parse_options(L, C, T, 3, 5, &S->b, &o, 0, 0, FOR_DIST);
  bridge_attach(&b, L, T, &o);
  count = F->w * F->h;
  full = !(astar_topology_abilities(T->t) & ASTAR_CAN_REPAIR) || o.q.cost_fn != NULL;
  if (!full) {
    /* the grid's changed cells, then the boxes of the option fields'
    ** changes (a cell whose penalty or permission changed is repaired as
    ** one whose cost changed: both decide the steps entering it) */
    size_t cap = FIELD_REPAIR_MAX(count);
    S->b.links = (int32_t *)sbuf_grow(L, C->M, S->b.links, &S->b.links_cap, cap,
                                      sizeof(int32_t));
    full = astar_grid_changes(T->grid, F->grid_version, S->b.links, cap, &nch) != ASTAR_OK ||
           (F->penalty && F->penalty->version != F->penalty_version &&
            !field_changes(F->penalty, F->penalty_version, S->b.links, &nch, cap)) ||
           (F->forbid && F->forbid->version != F->forbid_version &&
            !field_changes(F->forbid, F->forbid_version, S->b.links, &nch, cap));
  }
  if (!full) {
    rc = astar_grid_repair_distances(S->b.s, T->grid, S->b.nodes, n, o.reverse, &o.q, F->v,
                                     field_link(F), S->b.links, nch);
    full = rc == ASTAR_EINVAL; /* most of the field hung on the changes */
  }
  if (full) rc = astar_search_begin_distances(S->b.s, T->t, S->b.nodes, n, o.reverse, &o.q);
  if (rc != ASTAR_OK || (rc = astar_search_step(S->b.s, 0)) < 0)
    return search_error(L, T, S->b.s, rc);
  field_fill_distances(F, T, S->b.s);
  F->grid_version = astar_topology_version(T->t);
  if (F->penalty) F->penalty_version = F->penalty->version;
  if (F->forbid) F->forbid_version = F->forbid->version;
  field_changed(F, 0, 0, F->w - 1, F->h - 1);
  lua_pushstring(L, full ? "rebuilt" : "repaired");
  return 1;
}

/* ------------------------------------------------------------------------ */
/* audit                                                                      */
/* ------------------------------------------------------------------------ */

/* astar.audit_heuristic(topology, h [, { samples = n }]) -> report: for n
** (default 8) goals spread over the open nodes, h against the true cost to
** the goal at every node that can reach it, and every step for
** consistency; all with the topology's own costs (astar_audit_heuristic). */
static int l_audit_heuristic(lua_State *L) {
  static const char *const keys[] = {"samples"};
  lcall *C = call_frame(L);
  ltopo *T = check_topo(L, 1, NULL);
  uint64_t samples = 8;
  lsearch *S, *D;
  lopts o;
  lparse P;
  bridge b;
  astar_audit a;
  int rc;
  hold(L, C, &T->o, 1);
  lua_settop(L, 3);
  if (lua_isnil(L, 2)) type_error(L, 2, "heuristic");
  if (check_fields(L, 3, keys, 1)) {
    lua_getfield(L, 3, "samples");
    if (!lua_isnil(L, -1))
      samples = check_count(L, 3, lua_gettop(L), "samples", COUNT_MAX, COUNT_MAX_TEXT);
    lua_pop(L, 1);
  }
  /* two fresh search states (4, 5): the audit's buffers live there, so a
  ** Lua heuristic that raises leaves nothing behind */
  S = search_new(L, C);
  D = search_new(L, C);
  /* the heuristic, parsed as the option would be (registered names, objects
  ** and callables alike) */
  options_start(L, &P, &o, C, T, 1, 2, &S->b, 0, 0);
  opt_heuristic(L, &P, 2);
  bridge_attach(&b, L, T, &o);
  rc = astar_audit_heuristic(T->t, &o.q, samples > INT32_MAX ? INT32_MAX : (int32_t)samples,
                             S->b.s, D->b.s, &a);
  if (rc == ASTAR_EINVAL)
    return raise_error(L, "audit_heuristic: the %s has no open node", T->cls->what);
  if (rc != ASTAR_OK)
    return search_error(L, T, astar_search_status(D->b.s) < 0 ? D->b.s : S->b.s, rc);
  lua_createtable(L, 0, 10);
  lua_pushboolean(L, a.overestimates == 0);
  lua_setfield(L, -2, "admissible");
  lua_pushboolean(L, a.inconsistent == 0);
  lua_setfield(L, -2, "consistent");
  set_num(L, "max_overestimate", a.max_overestimate);
  set_num(L, "excess_bound", a.max_overestimate);
  set_num(L, "max_inconsistency", a.max_inconsistency);
  set_int(L, "violations", (double)a.inconsistent);
  set_int(L, "overestimates", (double)a.overestimates);
  set_int(L, "checked", (double)a.checked);
  set_int(L, "steps", (double)a.steps);
  set_int(L, "samples", (double)a.samples);
  return 1;
}
