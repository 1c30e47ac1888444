-- find_path option tables: every option with values of every wrong kind,
-- unknown keys, tables that are not options, metatables, reuse.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local NONE, NEG_ZERO, NAN, HUGE, U_GRID, U_GRAPH = H.NONE, H.NEG_ZERO, H.NAN, H.HUGE, H.U_GRID, H.U_GRAPH
local U_FIELD, VALUES, GW, GH, new_graph, graph_snapshot = H.U_FIELD, H.VALUES, H.GW, H.GH, H.new_graph, H.graph_snapshot
local graph_ok, new_grid, grid_snapshot, grid_ok = H.graph_ok, H.new_grid, H.grid_snapshot, H.grid_ok
local H_MUST, label_of = H.H_MUST, H.label_of

-- { option, value, message (nil: accepted) }
local function option_cases(grid)
  local other = astar.grid(2, 2)
  local cases = {
    { "heuristic", 3, H_MUST .. ", got 3" },
    { "heuristic", true, H_MUST .. ", got true" },
    { "heuristic", false, H_MUST .. ", got false" },
    { "heuristic", {}, H_MUST .. ", got table" },
    { "heuristic", setmetatable({}, { __index = { __call = print } }),
      H_MUST .. ", got table" },
    { "heuristic", "euclid", H_MUST .. ', got "euclid"' },
    { "heuristic", "Zero", H_MUST .. ', got "Zero"' },
    { "heuristic", "", H_MUST .. ', got ""' },
    { "heuristic", "1", H_MUST .. ', got "1"' },
    { "heuristic", NAN, H_MUST .. ", got nan" },
    { "heuristic", U_GRID, H_MUST .. ", got astar.Grid" },
    { "heuristic", "zero" },
    { "heuristic", "full_bisector" },
    { "heuristic", function() return 0 end },
    { "heuristic", setmetatable({}, { __call = function() return 0 end }) },
    { "weight", "1", 'weight must be a finite number >= 0, got "1"' },
    { "weight", true, "weight must be a finite number >= 0, got true" },
    { "weight", {}, "weight must be a finite number >= 0, got table" },
    { "weight", -1, "weight must be a finite number >= 0, got -1" },
    { "weight", NAN, "weight must be a finite number >= 0, got nan" },
    { "weight", HUGE, "weight must be a finite number >= 0, got inf" },
    { "weight", U_FIELD, "weight must be a finite number >= 0, got astar.Field" },
    { "weight", 0.5 },
    { "stop", 1, 'stop must be "expand", "first_hit" or "optimal", got 1' },
    { "stop", "fast", 'stop must be "expand", "first_hit" or "optimal", got "fast"' },
    { "stop", "EXPAND", 'stop must be "expand", "first_hit" or "optimal", got "EXPAND"' },
    { "stop", true, 'stop must be "expand", "first_hit" or "optimal", got true' },
    { "stop", {}, 'stop must be "expand", "first_hit" or "optimal", got table' },
    { "stop", print, 'stop must be "expand", "first_hit" or "optimal", got function' },
    { "stop", "first_hit" },
    { "tie_break", 0, 'tie_break must be "high_g" or "fifo", got 0' },
    { "tie_break", "lifo", 'tie_break must be "high_g" or "fifo", got "lifo"' },
    { "tie_break", false, 'tie_break must be "high_g" or "fifo", got false' },
    { "tie_break", "fifo" },
    { "costs", 2, "costs must be a table, got 2" },
    { "costs", "door", 'costs must be a table, got "door"' },
    { "costs", true, "costs must be a table, got true" },
    { "costs", print, "costs must be a table, got function" },
    { "costs", U_GRID, "costs must be a table, got astar.Grid" },
    { "costs", { door = "2" }, 'costs.door must be a finite number >= 0 or false, got "2"' },
    { "costs", { door = true }, "costs.door must be a finite number >= 0 or false, got true" },
    { "costs", { door = -1 }, "costs.door must be a finite number >= 0 or false, got -1" },
    { "costs", { door = NAN }, "costs.door must be a finite number >= 0 or false, got nan" },
    { "costs", { door = HUGE }, "costs.door must be a finite number >= 0 or false, got inf" },
    { "costs", { door = {} }, "costs.door must be a finite number >= 0 or false, got table" },
    { "costs", { [1] = 2 }, "costs keys must be tag names, got 1" },
    { "costs", { [true] = 2 }, "costs keys must be tag names, got true" },
    { "costs", { [2.5] = false }, "costs keys must be tag names, got 2.5" },
    { "costs", { door = false, never_used = 3, [""] = 0 } },
    { "costs", { door = NEG_ZERO } },
    { "cost", 3, "cost must be a function, got 3" },
    { "cost", "f", 'cost must be a function, got "f"' },
    { "cost", true, "cost must be a function, got true" },
    { "cost", {}, "cost must be a function, got table" },
    { "cost", U_GRAPH, "cost must be a function, got astar.Graph" },
    { "cost", setmetatable({}, { __call = function(_, ...) return select(grid and 5 or 3, ...) end }) },
    { "trace", 1, "trace must be a boolean, got 1" },
    { "trace", "yes", 'trace must be a boolean, got "yes"' },
    { "trace", {}, "trace must be a boolean, got table" },
    { "trace", false },
    { "visited", 0, "visited must be a boolean, got 0" },
    { "visited", NAN, "visited must be a boolean, got nan" },
    { "visited", true },
    { "max_expansions", 0, "max_expansions must be an integer in 1..2^53, got 0" },
    { "max_expansions", 1.5, "max_expansions must be an integer in 1..2^53, got 1.5" },
    { "max_expansions", -1, "max_expansions must be an integer in 1..2^53, got -1" },
    { "max_expansions", "1", 'max_expansions must be an integer in 1..2^53, got "1"' },
    { "max_expansions", NAN, "max_expansions must be an integer in 1..2^53, got nan" },
    { "max_expansions", HUGE, "max_expansions must be an integer in 1..2^53, got inf" },
    { "max_expansions", true, "max_expansions must be an integer in 1..2^53, got true" },
    { "max_expansions", 1 },
    { "max_expansions", 2 ^ 31 },
    { "max_cost", -1, "max_cost must be a number >= 0, got -1" },
    { "max_cost", NAN, "max_cost must be a number >= 0, got nan" },
    { "max_cost", -HUGE, "max_cost must be a number >= 0, got -inf" },
    { "max_cost", "5", 'max_cost must be a number >= 0, got "5"' },
    { "max_cost", {}, "max_cost must be a number >= 0, got table" },
    { "max_cost", 0 },
    { "max_cost", HUGE },
    { "partial", 1, "partial must be a boolean, got 1" },
    { "partial", "yes", 'partial must be a boolean, got "yes"' },
    { "partial", true },
    { "algorithm", 1, 'algorithm must be "auto", "astar", "jps" or "jps+", got 1' },
    { "algorithm", "JPS", 'algorithm must be "auto", "astar", "jps" or "jps+", got "JPS"' },
    { "algorithm", "a*", 'algorithm must be "auto", "astar", "jps" or "jps+", got "a*"' },
    { "algorithm", "", 'algorithm must be "auto", "astar", "jps" or "jps+", got ""' },
    { "algorithm", true, 'algorithm must be "auto", "astar", "jps" or "jps+", got true' },
    { "algorithm", {}, 'algorithm must be "auto", "astar", "jps" or "jps+", got table' },
    { "algorithm", NAN, 'algorithm must be "auto", "astar", "jps" or "jps+", got nan' },
    { "algorithm", U_GRID, 'algorithm must be "auto", "astar", "jps" or "jps+", got astar.Grid' },
    { "algorithm", "auto" },
    { "algorithm", "astar" },
    { "algorithm", "jps", (not grid or grid:diagonal() == "one_obstacle" or grid:diagonal() == "always")
      and ('algorithm "jps" does not apply to this query (%s)'):format(
        not grid and "a graph" or ("diagonal rule " .. grid:diagonal())) or nil },
    { "direction", "to_sources", 'unknown option "direction"' },
    { "huristic", "zero", 'unknown option "huristic"' },
    { "Heuristic", "zero", 'unknown option "Heuristic"' },
    { "", 1, 'unknown option ""' },
    { 1, "zero", "unknown option 1" },
    { 1.5, "zero", "unknown option 1.5" },
    { -1, true, "unknown option -1" },
    { true, 1, "unknown option true" },
    { {}, 1, "unknown option table" },
    { print, 1, "unknown option function" },
    { U_GRID, 1, "unknown option astar.Grid" },
  }
  if grid then
    local gw, gh = grid:size()
    local function add(c) cases[#cases + 1] = c end
    add({ "penalty", 3, "penalty must be an astar.Field, got 3" })
    add({ "penalty", "f", 'penalty must be an astar.Field, got "f"' })
    add({ "penalty", {}, "penalty must be an astar.Field, got table" })
    add({ "penalty", false, "penalty must be an astar.Field, got false" })
    add({ "penalty", U_GRID, "penalty must be an astar.Field, got astar.Grid" })
    add({ "penalty", U_GRAPH, "penalty must be an astar.Field, got astar.Graph" })
    add({ "penalty", astar.field(other),
      ("penalty field is 2x2 but the grid is %dx%d"):format(gw, gh) })
    add({ "penalty", astar.field(astar.grid(gh, gw)),
      ("penalty field is %dx%d but the grid is %dx%d"):format(gh, gw, gw, gh) })
    add({ "forbid", 1, "forbid must be an astar.Field, got 1" })
    add({ "forbid", true, "forbid must be an astar.Field, got true" })
    add({ "forbid", U_GRID, "forbid must be an astar.Field, got astar.Grid" })
    add({ "forbid", astar.field(other), ("forbid field is 2x2 but the grid is %dx%d"):format(gw, gh) })
    add({ "penalty_scale", "1", 'penalty_scale must be a finite number, got "1"' })
    add({ "penalty_scale", true, "penalty_scale must be a finite number, got true" })
    add({ "penalty_scale", NAN, "penalty_scale must be a finite number, got nan" })
    add({ "penalty_scale", HUGE, "penalty_scale must be a finite number, got inf" })
    add({ "penalty_scale", -HUGE, "penalty_scale must be a finite number, got -inf" })
    add({ "penalty_scale", -1 })
    add({ "penalty", astar.field(grid, 1) })
    add({ "forbid", astar.field(grid, 0) })
    local SIZE_MUST = "size must be an integer in 1..255, got "
    for _, e in ipairs({ { 0, "0" }, { 256, "256" }, { 1.5, "1.5" }, { "2", '"2"' }, { NAN, "nan" },
      { -1, "-1" }, { HUGE, "inf" }, { -HUGE, "-inf" }, { true, "true" }, { {}, "table" },
      { 255.5, "255.5" }, { U_GRID, "astar.Grid" } }) do
      add({ "size", e[1], SIZE_MUST .. e[2] })
    end
    add({ "size", 1 })
    add({ "size", 2 })
    add({ "size", 255 })
    add({ "size", 2.0 })
    -- a field of another grid of the same size is accepted
    add({ "penalty", astar.field(astar.grid(gw, gh), 0) })
    local SB_MUST = 'start_blocked must be "fail" or "escape", got '
    for _, e in ipairs({ { 1, "1" }, { true, "true" }, { "Escape", '"Escape"' }, { "", '""' }, { {}, "table" },
      { NAN, "nan" }, { U_GRID, "astar.Grid" }, { print, "function" } }) do
      add({ "start_blocked", e[1], SB_MUST .. e[2] })
    end
    add({ "start_blocked", "fail" })
    add({ "start_blocked", "escape" })
  else
    for _, k in ipairs({ "penalty", "forbid", "penalty_scale", "size", "start_blocked" }) do
      cases[#cases + 1] = { k, 1, ('option "%s" is only for grids'):format(k) }
      cases[#cases + 1] = { k, U_FIELD, ('option "%s" is only for grids'):format(k) }
    end
  end
  return cases
end

describe("hostile find_path options", function()
  local topo = {
    { "graph", function() return new_graph() end,
      function(g, o) return g:find_path(1, 3, o) end, 3, graph_snapshot, graph_ok },
    { "grid", function() return new_grid() end,
      function(g, o) return g:find_path(1, 1, GW, GH, o) end, 5, grid_snapshot, grid_ok },
  }
  for _, T in ipairs(topo) do
    local kind, make, query, argn, snap, healthy = T[1], T[2], T[3], T[4], T[5], T[6]
    for _, c in ipairs(option_cases(kind == "grid" and make() or nil)) do
      local k, v, want = c[1], c[2], c[3]
      it(("%s: %s = %s"):format(kind, label_of(k), label_of(v)), function()
        local g = make()
        local before = snap(g)
        if want then
          assert.equal(("bad argument #%d to 'find_path' (%s)"):format(argn, want),
            error_of(function() return query(g, { [k] = v }) end))
          assert.equal(before, snap(g))
        else
          local p = query(g, { [k] = v })
          assert.is_true(p == nil or type(p) == "table")
        end
        healthy(g)
      end)
    end

    it(kind .. ": options that are not a table", function()
      local g = make()
      for _, e in ipairs(VALUES) do
        if e.v ~= NONE and e.v ~= nil and type(e.v) ~= "table" and not e.ud then
          assert.equal(("bad argument #%d to 'find_path' (table expected, got %s)"):format(argn, e.t),
            error_of(function() return query(g, e.v) end))
        end
      end
      healthy(g)
    end)

    it(kind .. ": options inherit through __index, own keys are checked, __pairs is never used", function()
      local g = make()
      local no_pairs = function() error("__pairs must not be used") end
      local p = query(g, setmetatable({}, { __index = { trace = true }, __pairs = no_pairs }))
      assert.is_table(p.trace)
      p = query(g, setmetatable({}, { __index = function(_, k) return k == "visited" or nil end }))
      assert.is_table(p.visited)
      assert.is_nil(p.trace)
      assert.equal(("bad argument #%d to 'find_path' (stop must be \"expand\", \"first_hit\" or \"optimal\", "
        .. "got \"bogus\")"):format(argn),
        error_of(function() return query(g, setmetatable({}, { __index = { stop = "bogus" } })) end))
      assert.equal(("bad argument #%d to 'find_path' (unknown option \"bogus\")"):format(argn),
        error_of(function() return query(g, setmetatable({ bogus = 1 }, { __pairs = no_pairs })) end))
      healthy(g)
    end)

    it(kind .. ": the same options table serves many queries and is not changed", function()
      local g = make()
      local opts = { trace = true, visited = true, costs = { door = 2 }, heuristic = "zero" }
      local a = query(g, opts)
      local b = query(g, opts)
      assert.same(a, b)
      assert.same({ trace = true, visited = true, costs = { door = 2 }, heuristic = "zero" }, opts)
      healthy(g)
    end)
  end
end)
