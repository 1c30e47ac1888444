/*
** lopts.c -- search options: one table row per option (its name, the
** searches it applies to, whether it needs per-node fields, its parser),
** read into a core astar_query.  Included by lastar.c.
**
** Reading follows largs.c's rule for tables of named fields: the options
** table's own keys must all be options that apply; each option's value is
** then read with lua_getfield, so defaults inherited through __index apply
** (and may run Lua code: the caller holds what it uses).  The Lua values a
** search needs while it runs (callbacks, fields, heuristic objects) are
** kept in stack slots the parser pushes, so the collector cannot take them
** whatever the options table becomes.
**
** A new option: a row here, a field in astar_query (with its default in
** astar_query_init, its check in validate_query and its fast-path rule in
** query_plain, side by side in search.c), its use in the engine, and a
** sample in spec/options_spec.lua, which fails when an option would be
** ignored on open grids.
*/

static const char *const stop_names[] = {
    [ASTAR_STOP_EXPAND] = "expand",
    [ASTAR_STOP_FIRST_HIT] = "first_hit",
    [ASTAR_STOP_OPTIMAL] = "optimal",
};
static const char *const tie_names[] = {
    [ASTAR_TIE_HIGH_G] = "high_g",
    [ASTAR_TIE_FIFO] = "fifo",
};
static const char *const algorithm_names[] = {
    [ASTAR_ALGO_AUTO] = "auto",
    [ASTAR_ALGO_ASTAR] = "astar",
    [ASTAR_ALGO_JPS] = "jps",
    [ASTAR_ALGO_JPS_PLUS] = "jps+",
};
static const char *const direction_names[] = {"from_sources", "to_sources"};
/* on_change: what a time-sliced query does at its next step when its
** topology or a field it reads changed since it began. */
enum { ON_CHANGE_REPAIR,
       ON_CHANGE_RESTART,
       ON_CHANGE_FAIL };
static const char *const on_change_names[] = {
    [ON_CHANGE_REPAIR] = "repair",
    [ON_CHANGE_RESTART] = "restart",
    [ON_CHANGE_FAIL] = "fail",
};

/* The stack slots of the Lua values a search uses. */
enum { SLOT_H,
       SLOT_COST,
       SLOT_PENALTY,
       SLOT_FORBID,
       SLOT_HOBJ,
       OPT_SLOTS };

/* Parsed options: the query, and what the binding keeps beside it. */
typedef struct lopts {
  astar_query q;
  int slot; /* the first of OPT_SLOTS stack slots */
  int trace, visited, partial;
  int smooth, any_angle;    /* grids: path.points (lresult.c) */
  unsigned given;           /* bit i: options[i] was set */
  int reverse;              /* distances: 1 = cost to the sources */
  int on_change;            /* queries: ON_CHANGE_* */
  int escape;               /* find_path: start_blocked = "escape" (lgoals.c) */
  int later;                /* fields the caller adds to a path after push_path
                            ** (a query's restarts and repairs, flee's
                            ** threat_distance): path_fields sizes for them */
  size_t ngoals;            /* goals = {...} (lgoals.c): how many, 0 without; their
                            ** ids in buf->nodes, as listed then sorted (2 * ngoals) */
  const int32_t *goal_ids;  /* the sorted ones, set where the search runs */
  lfield *penalty, *forbid; /* the fields the query reads, if any */
} lopts;

/* What a set of options is for: FOR_PATH alone for find_path, with
** FOR_QUERY for a time-sliced query (which takes every path option too). */
enum { FOR_PATH = 1,
       FOR_DIST = 2,
       FOR_QUERY = 4,
       FOR_FIND = 8, /* find_path itself (start_blocked: not queries, not batches) */
       FOR_GOALS = 16 /* find_path and query: goals = {...} (lgoals.c) */ };

/* The parser's context. */
typedef struct lparse {
  lcall *C;
  ltopo *T;
  int tidx;   /* the topology's stack index */
  int arg;    /* the options table's argument number */
  lsbuf *buf; /* scratch for tag factors */
  lopts *o;
} lparse;

typedef struct lopt {
  const char *name;
  unsigned applies; /* FOR_PATH | FOR_DIST */
  int fields;       /* only where the topology takes fields */
  void (*parse)(lua_State *L, lparse *P, int v);
} lopt;

/* Keeps the value at v in the search's slot s. */
static void keep(lua_State *L, lparse *P, int s, int v) {
  lua_pushvalue(L, v);
  lua_replace(L, P->o->slot + s);
}

/* ------------------------------------------------------------------------ */
/* the parsers                                                                */
/* ------------------------------------------------------------------------ */

/* heuristic: a registered name (looked up first, so a mod can replace a
** built-in), a heuristic object, a callable or a built-in name. */
static void opt_heuristic(lua_State *L, lparse *P, int v) {
  astar_query *q = &P->o->q;
  if (lua_type(L, v) == LUA_TSTRING) {
    KEY(L, K_HEURISTICS);
    lua_pushvalue(L, v);
    lua_rawget(L, -2);
    if (!lua_isnil(L, -1)) lua_replace(L, v); /* the registered value */
    else lua_pop(L, 1);
    lua_pop(L, 1);
  }
  if (compat_testudata(L, v, HEUR_MT)) {
    lheur *H = check_heur_for(L, v, P->T, P->arg);
    hold(L, P->C, &H->o, 0);
    q->heuristic = ASTAR_H_CALLBACK;
    q->heuristic_fn = astar_table_heuristic;
    q->heuristic_ctx = H->tab;
    keep(L, P, SLOT_HOBJ, v);
    lua_pushnil(L);
    lua_replace(L, P->o->slot + SLOT_H);
  } else if (is_callable(L, v)) {
    q->heuristic = ASTAR_H_CALLBACK;
    q->heuristic_fn = NULL; /* the bridge, when the search runs */
    keep(L, P, SLOT_H, v);
  } else {
    /* the names this topology accepts ("hex" only on hex grids ...) */
    const char *names[HEURISTIC_COUNT];
    int i;
    for (i = 0; i < HEURISTIC_COUNT; i++)
      names[i] = astar_topology_accepts(P->T->t, i) ? heuristic_names[i] : NULL;
    q->heuristic = check_choice(L, P->arg, v, "heuristic", names, HEURISTIC_COUNT,
                                "a function, a registered name or ");
  }
}

/* The parsers: each reads the value at v for its option (v stays on the
** stack while it runs) and writes the query; a bad value raises naming the
** option and the value. */
static void opt_weight(lua_State *L, lparse *P, int v) {
  double w = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : -1;
  if (lua_type(L, v) != LUA_TNUMBER || !(w >= 0) || !isfinite(w))
    arg_error(L, P->arg, lua_pushfstring(L, "weight must be a finite number >= 0, got %s", describe(L, v)));
  P->o->q.weight = w;
}

static void opt_stop(lua_State *L, lparse *P, int v) {
  P->o->q.stop = check_choice(L, P->arg, v, "stop", stop_names, COUNT_OF(stop_names), "");
}

static void opt_tie_break(lua_State *L, lparse *P, int v) {
  P->o->q.tie_break = check_choice(L, P->arg, v, "tie_break", tie_names, COUNT_OF(tie_names), "");
}

/* A tag factor at vi for costs.<name>: a finite number >= 0, or false. */
static double tag_factor_of(lua_State *L, lparse *P, int vi, int kidx) {
  double f;
  if (lua_type(L, vi) == LUA_TBOOLEAN && !lua_toboolean(L, vi)) return ASTAR_FORBID;
  f = lua_type(L, vi) == LUA_TNUMBER ? lua_tonumber(L, vi) : -1;
  if (lua_type(L, vi) != LUA_TNUMBER || !(f >= 0) || !isfinite(f))
    arg_error(L, P->arg, lua_pushfstring(L, "costs.%s must be a finite number >= 0 or false, got %s", lua_tostring(L, kidx), describe(L, vi)));
  return f;
}

/*
** costs = { tag = factor | false }: its own entries must be tag names with
** valid factors (tags the topology never used are allowed: a level script
** may share one table across maps); then each of the topology's tags reads
** its factor with lua_getfield, so inherited factors apply.  The factors are
** copied: changing the table during the search changes nothing.
*/
static void opt_costs(lua_State *L, lparse *P, int v) {
  int32_t ntags, i;
  int names;
  if (!lua_istable(L, v))
    arg_error(L, P->arg, lua_pushfstring(L, "costs must be a table, got %s", describe(L, v)));
  lua_pushnil(L);
  while (lua_next(L, v)) { /* key, value */
    if (lua_type(L, -2) != LUA_TSTRING)
      arg_error(L, P->arg, lua_pushfstring(L, "costs keys must be tag names, got %s", describe(L, -2)));
    tag_factor_of(L, P, lua_gettop(L), lua_gettop(L) - 1);
    lua_pop(L, 1);
  }
  compat_getuv(L, P->tidx);
  lua_getfield(L, -1, "names");
  names = lua_gettop(L);
  ntags = (int32_t)compat_rawlen(L, names);
  P->buf->tagf = (double *)sbuf_grow(L, P->C->M, P->buf->tagf, &P->buf->tagf_cap,
                                     (size_t)ntags + 1, sizeof(double));
  for (i = 0; i <= ntags; i++) P->buf->tagf[i] = 1.0;
  for (i = 1; i <= ntags; i++) {
    lua_rawgeti(L, names, i); /* the tag's name */
    lua_pushvalue(L, -1);
    lua_gettable(L, v); /* name, factor? */
    if (!lua_isnil(L, -1)) P->buf->tagf[i] = tag_factor_of(L, P, lua_gettop(L), lua_gettop(L) - 1);
    lua_pop(L, 2);
  }
  lua_pop(L, 2);
  P->o->q.tag_factor = P->buf->tagf;
  P->o->q.tag_count = ntags + 1;
}

static void opt_cost(lua_State *L, lparse *P, int v) {
  if (!is_callable(L, v))
    arg_error(L, P->arg, lua_pushfstring(L, "cost must be a function, got %s", describe(L, v)));
  keep(L, P, SLOT_COST, v);
}

/* A field option (penalty, forbid): a field of the topology's shape, held
** and locked for the call (its values are part of the costs). */
static lfield *field_option(lua_State *L, lparse *P, int v, const char *name) {
  lfield *F = (lfield *)compat_testudata(L, v, FIELD_MT);
  int32_t w, h;
  if (F == NULL) {
    arg_error(L, P->arg, lua_pushfstring(L, "%s must be an astar.Field, got %s", name, describe(L, v)));
    return NULL; /* not reached: arg_error raises */
  }
  if (F->o.closed) closed_error(L, "field");
  P->T->cls->shape(P->T, &w, &h);
  if (F->w != w || F->h != h)
    arg_error(L, P->arg, lua_pushfstring(L, "%s field is %dx%d but the %s is %dx%d", name, (int)F->w, (int)F->h, P->T->cls->what, (int)w, (int)h));
  hold(L, P->C, &F->o, 1);
  return F;
}

static void opt_penalty(lua_State *L, lparse *P, int v) {
  P->o->penalty = field_option(L, P, v, "penalty");
  P->o->q.penalty = P->o->penalty->v;
  keep(L, P, SLOT_PENALTY, v);
}

static void opt_forbid(lua_State *L, lparse *P, int v) {
  P->o->forbid = field_option(L, P, v, "forbid");
  P->o->q.forbid = P->o->forbid->v;
  keep(L, P, SLOT_FORBID, v);
}

static void opt_penalty_scale(lua_State *L, lparse *P, int v) {
  double sc = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : 0;
  if (lua_type(L, v) != LUA_TNUMBER || !isfinite(sc))
    arg_error(L, P->arg, lua_pushfstring(L, "penalty_scale must be a finite number, got %s", describe(L, v)));
  P->o->q.penalty_scale = sc;
}

/* Up to 2^53: every count below is exact in a double, and the message can
** state the bound on every Lua. */
static void opt_max_expansions(lua_State *L, lparse *P, int v) {
  P->o->q.max_expansions = check_count(L, P->arg, v, "max_expansions", COUNT_MAX, COUNT_MAX_TEXT);
}

/* Any number >= 0, inf included (no limit). */
static void opt_max_cost(lua_State *L, lparse *P, int v) {
  double c = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : -1;
  if (lua_type(L, v) != LUA_TNUMBER || !(c >= 0))
    arg_error(L, P->arg, lua_pushfstring(L, "max_cost must be a number >= 0, got %s", describe(L, v)));
  P->o->q.max_cost = c;
}

/* size: the unit's side in cells, 1..the topology's largest (grids: 255;
** a topology without sized units takes only 1). */
static void opt_size(lua_State *L, lparse *P, int v) {
  int32_t most = astar_topology_max_size(P->T->t);
  double k = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : 0;
  if (lua_type(L, v) != LUA_TNUMBER || !(k >= 1) || k != floor(k) || k > most)
    arg_error(L, P->arg, lua_pushfstring(L, "size must be an integer in 1..%d, got %s", (int)most, describe(L, v)));
  P->o->q.size = (int32_t)k;
}

/* trace, visited, partial: booleans */
static int flag(lua_State *L, lparse *P, int v, const char *name) {
  if (lua_type(L, v) != LUA_TBOOLEAN)
    arg_error(L, P->arg, lua_pushfstring(L, "%s must be a boolean, got %s", name, describe(L, v)));
  return lua_toboolean(L, v);
}

static void opt_trace(lua_State *L, lparse *P, int v) { P->o->trace = flag(L, P, v, "trace"); }
static void opt_visited(lua_State *L, lparse *P, int v) {
  P->o->visited = flag(L, P, v, "visited");
}
static void opt_partial(lua_State *L, lparse *P, int v) {
  P->o->partial = flag(L, P, v, "partial");
}

static void opt_algorithm(lua_State *L, lparse *P, int v) {
  P->o->q.algorithm = check_choice(L, P->arg, v, "algorithm", algorithm_names,
                                   COUNT_OF(algorithm_names), "");
}

static void opt_on_change(lua_State *L, lparse *P, int v) {
  P->o->on_change = check_choice(L, P->arg, v, "on_change", on_change_names,
                                 COUNT_OF(on_change_names), "");
}

static void opt_smooth(lua_State *L, lparse *P, int v) { P->o->smooth = flag(L, P, v, "smooth"); }
static void opt_any_angle(lua_State *L, lparse *P, int v) {
  P->o->any_angle = flag(L, P, v, "any_angle");
}

static void opt_direction(lua_State *L, lparse *P, int v) {
  P->o->reverse = check_choice(L, P->arg, v, "direction", direction_names,
                               COUNT_OF(direction_names), "");
}

/* start_blocked: "fail" (the default: a start the unit cannot stand on is
** unreachable) or "escape" (find_path leaves it by the nearest way out:
** lgoals.c). */
static void opt_start_blocked(lua_State *L, lparse *P, int v) {
  static const char *const names[] = {"fail", "escape"};
  P->o->escape = check_choice(L, P->arg, v, "start_blocked", names, 2, "");
}

/* goals: the list of goals a search to the nearest of several reads (the
** goal arguments are left out then; lgoals.c).  Read here, once, raw: the
** ids go to buf->nodes, as listed, then sorted after them, so nothing
** reads the caller's table again (a callback may change it). */
static size_t read_goal_list(lua_State *L, lcall *C, ltopo *T, int arg, int v, lsbuf *b);
static void opt_goals(lua_State *L, lparse *P, int v) {
  P->o->ngoals = read_goal_list(L, P->C, P->T, P->arg, v, P->buf);
}

/* ------------------------------------------------------------------------ */
/* the table                                                                  */
/* ------------------------------------------------------------------------ */

/* The fields come first: they are held (locked) as they are read, and the
** sooner the better -- reading the other options may run Lua code (an
** __index, a finalizer at an allocation) that could write to them. */
static const lopt options[] = {
    {"penalty", FOR_PATH | FOR_DIST, 1, opt_penalty},
    {"forbid", FOR_PATH | FOR_DIST, 1, opt_forbid},
    {"heuristic", FOR_PATH, 0, opt_heuristic},
    {"weight", FOR_PATH, 0, opt_weight},
    {"stop", FOR_PATH, 0, opt_stop},
    {"tie_break", FOR_PATH, 0, opt_tie_break},
    {"costs", FOR_PATH | FOR_DIST, 0, opt_costs},
    {"cost", FOR_PATH | FOR_DIST, 0, opt_cost},
    {"penalty_scale", FOR_PATH | FOR_DIST, 1, opt_penalty_scale},
    {"max_expansions", FOR_PATH, 0, opt_max_expansions},
    {"max_cost", FOR_PATH | FOR_DIST, 0, opt_max_cost},
    {"size", FOR_PATH | FOR_DIST, 1, opt_size},
    {"trace", FOR_PATH, 0, opt_trace},
    {"visited", FOR_PATH, 0, opt_visited},
    {"partial", FOR_PATH, 0, opt_partial},
    {"algorithm", FOR_PATH, 0, opt_algorithm},
    {"direction", FOR_DIST, 0, opt_direction},
    {"smooth", FOR_PATH, 1, opt_smooth},
    {"any_angle", FOR_PATH, 1, opt_any_angle},
    {"on_change", FOR_QUERY, 0, opt_on_change},
    {"start_blocked", FOR_PATH, 1, opt_start_blocked},
    {"goals", FOR_GOALS, 0, opt_goals},
};
#define FIELD_OPTIONS 2 /* penalty and forbid, first in the table */

/* The table of option names the parser reads (KEY K_OPTIONS): options[i]
** is [i + 1] = name and [name] = i + 1, so an options table's key is found
** by one look-up, and the field options are read by interned name. */
static void push_option_names(lua_State *L) {
  int i;
  lua_createtable(L, COUNT_OF(options), COUNT_OF(options));
  for (i = 0; i < COUNT_OF(options); i++) {
    lua_pushstring(L, options[i].name);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, i + 1);
    lua_pushinteger(L, i + 1);
    lua_rawset(L, -3);
  }
}

/* The option named by the key at kidx, looked up in the names table at
** nidx (NULL: not a string, or no option). */
static const lopt *option_of_key(lua_State *L, int nidx, int kidx) {
  lua_Integer i;
  if (lua_type(L, kidx) != LUA_TSTRING) return NULL;
  lua_pushvalue(L, kidx);
  lua_rawget(L, nidx);
  i = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return i >= 1 && i <= COUNT_OF(options) ? &options[i - 1] : NULL;
}

static const lopt *find_option(const char *name) {
  int i;
  for (i = 0; i < COUNT_OF(options); i++)
    if (strcmp(name, options[i].name) == 0) return &options[i];
  return NULL;
}

/* Whether option p applies to a search `kind` on topology T. */
static int option_applies(const lopt *p, ltopo *T, unsigned kind) {
  int32_t w, h;
  return (p->applies & kind) && (!p->fields || T->cls->shape(T, &w, &h));
}

/* Option p, named by the key at kidx (value at vidx) of the options table
** at arg: raises unless it is one this search takes. */
static const lopt *own_check(lua_State *L, int arg, const lopt *p, int kidx, int vidx, ltopo *T,
                             unsigned kind) {
  /* distances-only options are unknown to path searches (which take every
  ** other option); path-only ones do not apply to distances */
  if (p != NULL && p->applies == FOR_GOALS && !(kind & FOR_GOALS))
    arg_error(L, arg, lua_pushfstring(L, "option \"goals\" is only for find_path and query, got %s", describe(L, vidx)));
  if (p == NULL || ((kind & FOR_PATH) && !(p->applies & (FOR_PATH | FOR_QUERY | FOR_GOALS))))
    arg_error(L, arg, lua_pushfstring(L, "unknown option %s", describe(L, kidx)));
  if (!(p->applies & kind) && p->applies == FOR_QUERY)
    arg_error(L, arg, lua_pushfstring(L, "option \"%s\" is only for queries (query())", p->name));
  if (!(p->applies & kind))
    arg_error(L, arg, lua_pushfstring(L, "option \"%s\" does not apply to distances", p->name));
  if (!option_applies(p, T, kind))
    arg_error(L, arg, lua_pushfstring(L, "option \"%s\" is only for grids", p->name));
  return p;
}

/* The option named by the key below the value on top (an entry of the
** options table at arg), checked by own_check. */
static const lopt *own_option(lua_State *L, int arg, int nidx, ltopo *T, unsigned kind) {
  int top = lua_gettop(L);
  return own_check(L, arg, option_of_key(L, nidx, top - 1), top - 1, top, T, kind);
}

/* Whether option `name` was set (parse_options records them). */
static int given(const lopts *o, const char *name) {
  const lopt *p = find_option(name);
  return p != NULL && (o->given >> (p - options) & 1u);
}

/*
** The options smoothing and any-angle paths cannot honour raise rather
** than be ignored: segments are priced per unit of length, which a cost
** callback (it prices steps) cannot say; any-angle search (Theta*) has its
** own heuristic (Euclidean), its own order and is its own algorithm.
*/
static void check_combinations(lua_State *L, lparse *P) {
  static const char *const not_any_angle[] = {"cost", "heuristic", "stop", "tie_break",
                                              "trace", "algorithm"};
  int i;
  if ((P->o->any_angle || P->o->smooth) &&
      !(astar_topology_abilities(P->T->t) & ASTAR_CAN_SEGMENTS))
    arg_error(L, P->arg, lua_pushfstring(L, "option \"%s\" is only for square grids", P->o->any_angle ? "any_angle" : "smooth"));
  if (P->o->any_angle) {
    for (i = 0; i < COUNT_OF(not_any_angle); i++)
      if (given(P->o, not_any_angle[i]))
        arg_error(L, P->arg, lua_pushfstring(L, "option \"%s\" cannot be combined with any_angle", not_any_angle[i]));
  }
  if (P->o->smooth && given(P->o, "cost"))
    arg_error(L, P->arg, "option \"cost\" cannot be combined with smooth");
  if (P->o->ngoals > 0) {
    /* the search to the nearest of several goals is one Dijkstra search
    ** (lgoals.c): no heuristic guides it, and it has no partial answer */
    static const char *const not_goals[] = {"heuristic", "weight", "stop", "tie_break",
                                            "partial", "any_angle"};
    for (i = 0; i < COUNT_OF(not_goals); i++)
      if (i < 4 ? given(P->o, not_goals[i]) : i == 4 ? P->o->partial
                                                     : P->o->any_angle)
        arg_error(L, P->arg, lua_pushfstring(L, "option \"%s\" cannot be combined with goals (the search to the nearest of several goals is Dijkstra's)", not_goals[i]));
    if (P->o->q.algorithm == ASTAR_ALGO_JPS || P->o->q.algorithm == ASTAR_ALGO_JPS_PLUS)
      arg_error(L, P->arg, lua_pushfstring(L, "algorithm \"%s\" cannot be combined with goals (\"auto\" takes jump point search where it serves)", algorithm_names[P->o->q.algorithm]));
  }
}

/* With no heuristic option, the topology's default -- by name, so a
** registered override of that name applies here too (looked up once a
** built-in name was ever registered in this Lua state). */
static void default_heuristic(lua_State *L, lparse *P) {
  int h = astar_topology_default_heuristic(P->T->t);
  if (!P->C->M->overridden) {
    P->o->q.heuristic = h;
    return;
  }
  KEY(L, K_HNAMES + h); /* heuristic_names[h] */
  KEY(L, K_HEURISTICS);
  lua_pushvalue(L, -2);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1)) { /* not overridden: the built-in one, which T accepts */
    P->o->q.heuristic = h;
    lua_pop(L, 3);
    return;
  }
  lua_pop(L, 2);
  opt_heuristic(L, P, lua_gettop(L));
  lua_pop(L, 1);
}

/*
** Parses the options table at arg (absent or nil: defaults) for a search
** of `kind` on topology T (at tidx) from start to goal, into o.  Pushes the
** OPT_SLOTS slots.  A key that is not an option, or not one for this kind
** of search or topology, is an error: a typo never goes unnoticed.
*/
/* Starts o with the defaults (the query from start to goal) and P as its
** parser for argument arg of a search on T (at tidx); pushes the empty
** OPT_SLOTS slots. */
static void options_start(lua_State *L, lparse *P, lopts *o, lcall *C, ltopo *T, int tidx,
                          int arg, lsbuf *buf, int32_t start, int32_t goal) {
  int i;
  P->C = C;
  P->T = T;
  P->tidx = tidx;
  P->arg = arg;
  P->buf = buf;
  P->o = o;
  astar_query_init(&o->q, start, goal);
  o->trace = o->visited = o->partial = 0;
  o->smooth = o->any_angle = 0;
  o->given = 0;
  o->reverse = 1;
  o->on_change = ON_CHANGE_REPAIR;
  o->escape = o->later = 0;
  o->ngoals = 0;
  o->goal_ids = NULL;
  o->penalty = o->forbid = NULL;
  luaL_checkstack(L, OPT_SLOTS + 8, "too many arguments");
  for (i = 0; i < OPT_SLOTS; i++) lua_pushnil(L);
  o->slot = lua_gettop(L) - OPT_SLOTS + 1;
}

/* More own keys than there are options: one of them is none. */
#define OWN_MAX (COUNT_OF(options) + 1)

/*
** The own entries of the options table at arg (no metatable: they are all
** there is), read in one traversal: the first OWN_MAX pairs stay on the
** stack with their options, the field options are read first (by name, in
** the table's order of rows), then the other entries are checked and parsed
** in the traversal's order, from the stack.  With more than OWN_MAX entries,
** one of the stacked ones is no option and raises there: the entries past
** them are only looked at for field options.  So the errors and their order
** are those of a second traversal, without it.
*/
static void parse_own(lua_State *L, lparse *P, int arg, int nidx, unsigned kind) {
  const lopt *own[OWN_MAX];
  int n = 0, i, base = lua_gettop(L);
  unsigned fields = 0; /* bit i: field option i is there */
  luaL_checkstack(L, 2 * OWN_MAX + 8, "too many options");
  lua_pushnil(L);
  while (lua_next(L, arg)) { /* ..., pairs, key, value */
    int top = lua_gettop(L);
    const lopt *p = option_of_key(L, nidx, top - 1);
    if (p != NULL && p < options + FIELD_OPTIONS) fields |= 1u << (p - options);
    if (n < OWN_MAX) {
      own[n++] = p;
      lua_pushvalue(L, top - 1); /* the key again, for lua_next: the pair stays */
    } else {
      lua_pop(L, 1);
    }
  }
  for (i = 0; i < FIELD_OPTIONS; i++) {
    if (!(fields >> i & 1u) || !option_applies(&options[i], P->T, kind)) continue;
    lua_rawgeti(L, nidx, i + 1); /* the fields, held first */
    lua_rawget(L, arg);
    options[i].parse(L, P, lua_gettop(L));
    P->o->given |= 1u << i;
    lua_pop(L, 1);
  }
  for (i = 0; i < n; i++) {
    int kidx = base + 1 + 2 * i;
    const lopt *p = own_check(L, P->arg, own[i], kidx, kidx + 1, P->T, kind);
    if (p >= options + FIELD_OPTIONS) {
      p->parse(L, P, kidx + 1);
      P->o->given |= 1u << (p - options);
    }
  }
  lua_settop(L, base);
}

static void parse_options(lua_State *L, lcall *C, ltopo *T, int tidx, int arg, lsbuf *buf,
                          lopts *o, int32_t start, int32_t goal, unsigned kind) {
  lparse P;
  int i;
  options_start(L, &P, o, C, T, tidx, arg, buf, start, goal);
  if (!lua_isnoneornil(L, arg)) {
    int nidx;
    if (!lua_istable(L, arg)) type_error(L, arg, "table");
    KEY(L, K_OPTIONS);
    nidx = lua_gettop(L);
    if (!lua_getmetatable(L, arg)) {
      parse_own(L, &P, arg, nidx, kind);
    } else {
      lua_pop(L, 1);
      lua_pushnil(L);
      while (lua_next(L, arg)) { /* the table's own entries: checked */
        (void)own_option(L, arg, nidx, T, kind);
        lua_pop(L, 1);
      }
      /* then every option, read through __index, in the table's order
      ** of rows (the fields first) */
      for (i = 0; i < COUNT_OF(options); i++) {
        if (!option_applies(&options[i], T, kind)) continue;
        lua_getfield(L, arg, options[i].name);
        if (!lua_isnil(L, -1)) {
          options[i].parse(L, &P, lua_gettop(L));
          o->given |= 1u << i;
        }
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1); /* the names */
  }
  check_combinations(L, &P);
  if (o->escape && !(kind & FOR_FIND))
    arg_error(L, arg, "option \"start_blocked\" is only for find_path");
  if ((kind & FOR_PATH) && o->q.heuristic == ASTAR_H_DEFAULT) default_heuristic(L, &P);
  o->q.record_trace = o->trace;
  o->q.record_visited = o->visited;
  o->q.track_best = o->partial;
  /* "jps" where it cannot serve: say why (the core would only refuse) */
  if ((kind & FOR_PATH) && o->q.algorithm == ASTAR_ALGO_JPS) {
    const char *why = astar_jps_refusal(T->t, &o->q);
    /* the cost callback's bridge is set when the search runs */
    if (!why && !lua_isnil(L, o->slot + SLOT_COST)) why = "cost callback";
    if (why)
      arg_error(L, arg, lua_pushfstring(L, "algorithm \"jps\" does not apply to this query (%s)", why));
  }
  /* "jps+" likewise; without a table, say what builds it */
  if ((kind & FOR_PATH) && o->q.algorithm == ASTAR_ALGO_JPS_PLUS) {
    const char *why = astar_jps_plus_refusal(T->t, &o->q);
    if (!why && !lua_isnil(L, o->slot + SLOT_COST)) why = "cost callback";
    if (why)
      arg_error(L, arg, lua_pushfstring(L, "algorithm \"jps+\" does not apply to this query (%s%s)", why, strcmp(why, "no jump table") == 0 ? ": grid:precompute_jumps() builds it" : ""));
  }
}

/* core._options() -> { name = { path = bool, distances = bool, grids_only
** = bool, query = bool } }: the option table, for the spec that checks that no option is
** ignored on open grids. */
static int l_options(lua_State *L) {
  int i;
  lua_createtable(L, 0, COUNT_OF(options));
  for (i = 0; i < COUNT_OF(options); i++) {
    lua_createtable(L, 0, 4);
    lua_pushboolean(L, (options[i].applies & FOR_PATH) != 0);
    lua_setfield(L, -2, "path");
    lua_pushboolean(L, (options[i].applies & FOR_DIST) != 0);
    lua_setfield(L, -2, "distances");
    lua_pushboolean(L, options[i].fields);
    lua_setfield(L, -2, "grids_only");
    lua_pushboolean(L, (options[i].applies & FOR_QUERY) != 0);
    lua_setfield(L, -2, "query");
    lua_setfield(L, -2, options[i].name);
  }
  return 1;
}
