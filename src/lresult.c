/*
** lresult.c -- what searches return: statistics, paths, outcomes, and the
** messages of the core's errors.  Included by lastar.c.
**
** A path is built once at the end, with the table sizes known; a topology's
** class adds what is particular to its kind (graph: edges; grid: width and
** xy on first access).  Expected outcomes are returned (nil, "unreachable",
** stats); only misuse and bad data raise.
*/

/* Square grids' paths off the lattice (lsmooth.c). */
static void grid_path_points(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const lopts *o,
                             int32_t len);
static int push_theta_outcome(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const lopts *o,
                              int status);
static void push_theta_stats(lua_State *L, astar_theta *th, const lopts *o);
static void world_options(lua_State *L, int arg, double *s, double *ox, double *oy);
static void world_store(lua_State *L, int gidx, double s, double ox, double oy);
static void world_frame(lua_State *L, double *s, double *ox, double *oy);

static void set_int(lua_State *L, const char *k, double v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, k);
}

static void set_num(lua_State *L, const char *k, double v) {
  lua_pushnumber(L, v);
  lua_setfield(L, -2, k);
}

/* set_int and set_num by interned key (KEY: K_COST ...); the table on top
** is the search's own, with no metatable yet: a raw set. */
static void kset_int(lua_State *L, int k, lua_Integer v) {
  KEY(L, k);
  lua_pushinteger(L, v);
  lua_rawset(L, -3);
}

static void kset_num(lua_State *L, int k, double v) {
  KEY(L, k);
  lua_pushnumber(L, v);
  lua_rawset(L, -3);
}

/*
** Pushes the list {ids[0] + 1, ..., ids[n - 1] + 1} (a path's nodes, its
** edges, the visited nodes).  Filled one lua_rawseti a value, a list costs
** about twice what the values cost on the stack: from LIST_MIN values on,
** they are pushed and handed to the chunk `return {...}` (K_LIST), whose
** constructor sizes the array once and copies them in (the public API
** only: any Lua runs it).  The stack must have room for twice the values
** (the chunk's varargs are copied into its frame); a list longer than
** LIST_MAX, or a stack that cannot grow that far (LuaJIT's C stack limit),
** is filled value by value.  Either way the same table: its array part
** holds exactly the n values.
*/
#define LIST_CHUNK "return {...}"
#define LIST_MIN 6
#define LIST_MAX 65536

static void push_id_list(lua_State *L, const int32_t *ids, size_t n) {
  size_t i;
  if (n >= LIST_MIN && n <= LIST_MAX && lua_checkstack(L, 2 * (int)n + LUA_MINSTACK)) {
    KEY(L, K_LIST);
    for (i = 0; i + 4 <= n; i += 4) { /* four a round: a quarter of the loop's own steps */
      lua_pushinteger(L, (lua_Integer)ids[i] + 1);
      lua_pushinteger(L, (lua_Integer)ids[i + 1] + 1);
      lua_pushinteger(L, (lua_Integer)ids[i + 2] + 1);
      lua_pushinteger(L, (lua_Integer)ids[i + 3] + 1);
    }
    for (; i < n; i++) lua_pushinteger(L, (lua_Integer)ids[i] + 1);
    lua_call(L, (int)n, 1);
    return;
  }
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)ids[i] + 1);
    lua_rawseti(L, -2, (int)i + 1);
  }
}

/* The statistics and records of one search, wherever they are kept (in
** its search state, or copied out of a batch's). */
typedef struct lrecord {
  astar_stats st;
  const int32_t *visited;
  size_t nvisited;
  const astar_trace_entry *trace;
  size_t ntrace;
} lrecord;

static void record_of(astar_search *s, lrecord *r) {
  r->st = *astar_search_stats(s);
  r->visited = astar_search_visited(s, &r->nvisited);
  r->trace = astar_search_trace(s, &r->ntrace);
}

/* Adds expanded / reopened / generated (and trace, visited when asked) to
** the table on top. */
static void push_record(lua_State *L, ltopo *T, const lrecord *r, const lopts *o) {
  size_t i;
  kset_int(L, K_EXPANDED, (lua_Integer)r->st.expanded);
  kset_int(L, K_REOPENED, (lua_Integer)r->st.reopened);
  kset_int(L, K_GENERATED, (lua_Integer)r->st.generated);
  if (o->visited) {
    push_id_list(L, r->visited, r->nvisited);
    lua_setfield(L, -2, "visited");
  }
  if (o->trace) {
    const astar_trace_entry *t = r->trace;
    lua_createtable(L, (int)r->ntrace, 0);
    for (i = 0; i < r->ntrace; i++) {
      lua_createtable(L, 0, 6);
      kset_int(L, K_NODE, (lua_Integer)t[i].node + 1);
      if (t[i].parent >= 0) kset_int(L, K_PARENT, (lua_Integer)t[i].parent + 1);
      kset_num(L, K_G, t[i].g);
      kset_num(L, K_F, t[i].f);
      if (T->cls->trace_extras) T->cls->trace_extras(L, T, t[i].node);
      lua_rawseti(L, -2, (int)i + 1);
    }
    lua_setfield(L, -2, "trace");
  }
}

static void push_stats(lua_State *L, ltopo *T, astar_search *s, const lopts *o) {
  lrecord r;
  record_of(s, &r);
  push_record(L, T, &r, o);
}

/* How many fields the path table of a search with options o gets: cost,
** nodes, version, the class's own, the counts, and what the options add
** (size, visited, trace, partial and reason, points, goal, escape) and
** what the caller adds after (o->later). */
static int path_fields(ltopo *T, const lopts *o) {
  return 6 + T->cls->path_fields + (o->q.size > 1) + (o->visited != 0) + (o->trace != 0) +
         2 * (o->partial != 0) + (o->smooth != 0) + (o->ngoals > 0) + (o->escape != 0) +
         o->later;
}

/* Pushes the table of a path of len nodes: { cost =, nodes = } and the
** class's extras (edges, or length, width and xy; length: as known, or -1);
** the statistics come after.  Its hash part is made for every field o
** gives it (a plain grid path: eight, where nine made room for 16): none
** is added by rehashing. */
static void push_path_table(lua_State *L, ltopo *T, const int32_t *nodes, const int32_t *links,
                            int32_t len, double cost, double length, const lopts *o) {
  lua_createtable(L, 0, path_fields(T, o));
  kset_num(L, K_COST, cost);
  KEY(L, K_NODES);
  push_id_list(L, nodes, (size_t)len);
  lua_rawset(L, -3);
  kset_int(L, K_VERSION, (lua_Integer)astar_topology_version(T->t)); /* path_valid, changes */
  T->cls->path_extras(L, T, links, len, length);
}

/* Records a sized unit's size in the path on top (path_valid reads it). */
static void push_path_size(lua_State *L, const lopts *o) {
  if (o->q.size <= 1) return;
  lua_pushinteger(L, (lua_Integer)o->q.size);
  lua_setfield(L, -2, "size");
}

/* Pushes the path table for the path start..to, then the statistics.  The
** path is copied out of the search into scratch the search state owns (an
** allocation failure while the table is built leaks nothing), in one walk:
** the core grows the scratch as it goes (astar_search_path_fill), with the
** allocator and the growth sbuf_grow uses, so the two share it. */
static void push_path(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const lopts *o,
                      int32_t to) {
  /* a jump point search's cost is its path's length to the bit: it sums
  ** 1 or the diagonal per step in path order (jps.c's jps_path), as
  ** path.length does (spec/path_result_spec.lua checks both); so its
  ** links, which only path.length would read, are not written at all */
  int jps = astar_search_jps(b->s), rc;
  int32_t len;
  double cost = 0;
  rc = astar_search_path_fill(b->s, to, state_alloc, C->M, &b->nodes, &b->nodes_cap,
                              jps ? NULL : &b->links, &b->links_cap, &len, &cost);
  if (rc != ASTAR_OK) status_error(L, rc);
  push_path_table(L, T, b->nodes, jps ? NULL : b->links, len, cost, jps ? cost : -1.0, o);
  push_path_size(L, o);
  grid_path_points(L, C, T, b, o, len); /* after the links are used */
  push_stats(L, T, b->s, o);
}

/* Pushes what find_path returns for a final status: the path, or nil,
** reason, stats; with partial = true, the path to the reached node with the
** smallest heuristic value, marked partial with the reason.  Returns the
** count. */
static int theta_find_path(lua_State *L, lcall *C, ltopo *T, lsbuf *b, lopts *o);
static void theta_begin(lua_State *L, lcall *C, ltopo *T, lsbuf *b, lopts *o);
static int theta_step(lua_State *L, ltopo *T, lsbuf *b, uint64_t n);

static int push_outcome(lua_State *L, lcall *C, ltopo *T, lsbuf *b, const lopts *o,
                        int status) {
  if (o->any_angle) return push_theta_outcome(L, C, T, b, o, status);
  if (status == ASTAR_FOUND) {
    push_path(L, C, T, b, o, astar_search_goal(b->s));
    return 1;
  }
  if (o->partial && astar_search_best(b->s) >= 0) {
    push_path(L, C, T, b, o, astar_search_best(b->s));
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "partial");
    lua_pushstring(L, astar_status_name(status));
    lua_setfield(L, -2, "reason");
    return 1;
  }
  lua_pushnil(L);
  lua_pushstring(L, astar_status_name(status));
  lua_createtable(L, 0, 5);
  push_stats(L, T, b->s, o);
  return 3;
}

/* Pushes the rule a bad step cost broke, by cause ("tag factors must keep
** edge costs finite"). */
static const char *cost_rule(lua_State *L, int cause, const char *word) {
  switch (cause) {
    case ASTAR_CAUSE_TAG_FACTOR:
      return lua_pushfstring(L, "tag factors must keep %s costs finite", word);
    case ASTAR_CAUSE_PENALTY:
      return lua_pushfstring(L, "penalty * penalty_scale must keep %s costs finite and >= 0",
                             word);
    case ASTAR_CAUSE_STEP: return lua_pushfstring(L, "cell costs must keep %s costs finite", word);
    default: return lua_pushfstring(L, "%s costs must be finite and >= 0", word);
  }
}

/* Raises the message for a core error status from search s on T (callback
** errors never get here: the bridges raise their own).  Bad costs name
** what caused them (astar_error_info.cause), so a level designer is told
** to lower a tag factor, not a penalty the query never had. */
static int search_error_info(lua_State *L, ltopo *T, const astar_error_info *e, int rc) {
  if (rc == ASTAR_ECOST) {
    const char *subject = T->cls->cost_subject(L, T, e->from, e->node, e->link);
    const char *value = describe_number(L, e->value);
    return raise_error(L, "%s would cost %s (%s)", subject, value,
                       cost_rule(L, e->cause, T->cls->step_word));
  }
  if (rc == ASTAR_EOVERFLOW)
    return raise_error(L, "the cost of reaching %s overflows (costs too large)",
                       T->cls->node_name(L, T, e->node));
  if (rc == ASTAR_ECHANGED)
    return raise_error(L, "the %s changed since this query began (start a new query)",
                       T->cls->what);
  return status_error(L, rc);
}

static int search_error(lua_State *L, ltopo *T, astar_search *s, int rc) {
  return search_error_info(L, T, astar_search_error(s), rc);
}
