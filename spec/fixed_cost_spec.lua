-- What find_path's cheaper fixed cost through Lua must keep (issue 19; src/lopts.c
-- parse_own, default_heuristic, src/lsearch.c goal_check, src/lresult.c
-- path_fields): an options table is read in one traversal, its pairs kept on the
-- stack, so the answers, the errors and their order must be those of the two
-- traversals before; the default heuristic's registered name is looked up only
-- once a built-in name was ever registered; the goal arguments are read once;
-- path tables are made for exactly their fields.
local astar = require("astar")
local helpers = require("helpers")
local error_of = helpers.error_of

-- alone(script) -> what script wrote: run by this interpreter in a process
-- of its own (for specs that register names or reload the module)
local function alone(script)
  local cmd = helpers.quote(helpers.lua_binary()) .. " -e " .. helpers.quote(script) .. " 2>&1"
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  return out
end

-- A path as comparable data: every own field (the nodes and xy lists copied).
local function fields(p)
  if type(p) ~= "table" then return p end
  local t = {}
  for k, v in pairs(p) do
    if type(v) == "table" and k ~= "trace" then
      local c = {}
      for i, x in ipairs(v) do c[i] = type(x) == "table" and { x[1], x[2] } or x end
      v = c
    end
    t[k] = v
  end
  return t
end

local function keys(p)
  local t = {}
  for k in pairs(p) do t[#t + 1] = k end
  table.sort(t)
  return table.concat(t, " ")
end

-- "b a c" -> "a b c"
local function sorted(words)
  local t = {}
  for w in words:gmatch("%S+") do t[w] = true end
  return keys(t)
end

describe("find_path's options, read in one traversal", function()
  local grid
  before_each(function()
    grid = astar.grid(16, 12)
    for y = 2, 11 do grid:set_blocked(8, y, true) end
    grid:precompute_jumps()
  end)

  it("answers as the same options given through __index (the two-pass reading)", function()
    local samples = {
      {}, { algorithm = "jps+" }, { algorithm = "astar", heuristic = "manhattan", weight = 2 },
      { max_expansions = 3 }, { max_expansions = 3, partial = true }, { visited = true, trace = true },
      { size = 2, algorithm = "astar" }, { smooth = true }, { stop = "first_hit", tie_break = "fifo" },
      { max_cost = 5 }, { algorithm = "jps", visited = true },
    }
    for i, o in ipairs(samples) do
      local own = { grid:find_path(1, 12, 16, 1, o) }
      local inherited = { grid:find_path(1, 12, 16, 1, setmetatable({}, { __index = o })) }
      assert.same(fields(inherited[1]), fields(own[1]), "sample " .. i)
      assert.same(inherited[2], own[2], "sample " .. i)
      assert.same(inherited[3], own[3], "sample " .. i)
    end
  end)

  it("reads a reused table afresh on every call: changed, added and removed keys", function()
    local o = { algorithm = "astar" }
    local a = grid:find_path(1, 12, 16, 1, o)
    o.algorithm = "jps"
    local j = grid:find_path(1, 12, 16, 1, o)
    assert.equal(a.cost, j.cost)
    assert.is_true(j.expanded < a.expanded)
    o.max_expansions = 1
    local p, why = grid:find_path(1, 12, 16, 1, o)
    assert.is_nil(p)
    assert.equal("max_expansions", why)
    o.max_expansions = nil
    o.algorithm = nil
    assert.same(fields(grid:find_path(1, 12, 16, 1)), fields(grid:find_path(1, 12, 16, 1, o)))
    o.bogus = true
    assert.equal("bad argument #5 to 'find_path' (unknown option \"bogus\")",
      error_of(grid.find_path, grid, 1, 12, 16, 1, o))
  end)

  it("raises the first bad entry in traversal order, the field options first", function()
    local pen = astar.field(grid)
    -- the key next() meets first is the one the error names, as before
    local o = { weight = -1, stop = "never", bogus = 1 }
    local first = next(o)
    local want = ({
      weight = "bad argument #5 to 'find_path' (weight must be a finite number >= 0, got -1)",
      stop = "bad argument #5 to 'find_path' (stop must be \"expand\", \"first_hit\" or \"optimal\", got \"never\")",
      bogus = "bad argument #5 to 'find_path' (unknown option \"bogus\")",
    })[first]
    assert.equal(want, error_of(grid.find_path, grid, 1, 12, 16, 1, o))
    -- a bad field option is raised before anything else, wherever it sits
    o = { bogus = 1, weight = -1, penalty = 3 }
    assert.equal("bad argument #5 to 'find_path' (penalty must be an astar.Field, got 3)",
      error_of(grid.find_path, grid, 1, 12, 16, 1, o))
    o = { bogus = 1, penalty = pen, forbid = "x" }
    assert.equal("bad argument #5 to 'find_path' (forbid must be an astar.Field, got \"x\")",
      error_of(grid.find_path, grid, 1, 12, 16, 1, o))
    -- ... and on a graph a field option is an option for grids only
    local g = astar.graph()
    g:add_node(0, 0)
    g:add_node(1, 0)
    g:add_edge(1, 2, 1)
    assert.equal("bad argument #3 to 'find_path' (option \"penalty\" is only for grids)",
      error_of(g.find_path, g, 1, 2, { penalty = pen }))
    -- a key that is no string
    assert.equal("bad argument #5 to 'find_path' (unknown option 1)",
      error_of(grid.find_path, grid, 1, 12, 16, 1, { true }))
  end)

  it("takes tables of more entries than there are options (only some stay on the stack)", function()
    local n = 0
    for _ in pairs(require("astar.backend").core._options()) do n = n + 1 end
    local pen = astar.field(astar.grid(3, 3)) -- of another shape: raises when read
    for _, extra in ipairs({ n, n + 1, n + 2, 3 * n, 1000 }) do
      local o = {}
      for i = 1, extra do o["bogus" .. i] = i end
      local err = error_of(grid.find_path, grid, 1, 12, 16, 1, o)
      assert.matches("^bad argument #5 to 'find_path' %(unknown option \"bogus%d+\"%)$", err)
      local first = next(o)
      assert.equal("bad argument #5 to 'find_path' (unknown option \"" .. first .. "\")", err)
      -- the field option past the stacked entries is still read first
      o.penalty = pen
      assert.equal("bad argument #5 to 'find_path' (penalty field is 3x3 but the grid is 16x12)",
        error_of(grid.find_path, grid, 1, 12, 16, 1, o))
      o.penalty = nil
    end
    -- every option at once, all valid for a path: the stack holds them
    local all = {
      heuristic = "octile", weight = 1, stop = "expand", tie_break = "high_g", max_expansions = 1000,
      max_cost = 100, trace = false, visited = false, partial = false, algorithm = "astar",
      costs = {}, penalty = astar.field(grid), penalty_scale = 1, forbid = astar.field(grid),
      start_blocked = "fail", size = 1,
    }
    local p = grid:find_path(1, 12, 16, 1, all)
    assert.equal(grid:find_path(1, 12, 16, 1, { algorithm = "astar" }).cost, p.cost)
  end)

  it("leaves the grid and the stack usable after an error mid-parse", function()
    local pen = astar.field(grid)
    for _ = 1, 3 do
      assert.has_error(function() grid:find_path(1, 12, 16, 1, { penalty = pen, weight = "x" }) end)
      -- the field and the grid were held for the call only
      pen:set(1, 1, 2)
      grid:set_blocked(3, 3, true)
      grid:set_blocked(3, 3, false)
    end
    grid:precompute_jumps()
    local p = grid:find_path(1, 12, 16, 1, { algorithm = "jps+" })
    assert.same(fields(grid:find_path(1, 12, 16, 1, { algorithm = "jps" })).cost, p.cost)
    -- nested in a callback: the inner call's pairs are its own
    local inner
    local q = grid:find_path(1, 12, 16, 1, {
      algorithm = "astar",
      heuristic = function()
        if not inner then inner = grid:find_path(1, 1, 3, 1, { algorithm = "astar", visited = true }) end
        return 0
      end,
    })
    assert.is_table(q)
    assert.same({ 1, 2, 3 }, inner.nodes)
    assert.same({ 1, 2, 3 }, inner.visited)
  end)

  it("keeps the options' Lua values alive while the search runs", function()
    local calls = 0
    local p = grid:find_path(1, 12, 16, 1, {
      algorithm = "astar",
      heuristic = function()
        calls = calls + 1
        if calls % 7 == 0 then collectgarbage() end
        return 0
      end,
    })
    assert.is_table(p)
    assert.is_true(calls > 0)
  end)
end)

describe("find_path's goal arguments, read once", function()
  it("raises as before for a goal left out, nil or doubled", function()
    local grid = astar.grid(4, 4)
    assert.equal("bad argument #4 to 'find_path' (number expected, got nil)",
      error_of(grid.find_path, grid, 1, 1, 2, nil))
    assert.equal("bad argument #3 to 'find_path' (number expected, got nil)",
      error_of(grid.find_path, grid, 1, 1, nil, nil, {}))
    assert.equal("bad argument #3 to 'find_path' (number expected, got no value)",
      error_of(grid.find_path, grid, 1, 1))
    assert.equal("bad argument #3 to 'find_path' (a goal (or options.goals) expected, got table)",
      error_of(grid.find_path, grid, 1, 1, {}))
    assert.equal("bad argument #5 to 'find_path' (goals cannot be combined with a goal argument (leave the goal out, or nil))",
      error_of(grid.find_path, grid, 1, 1, 4, 4, { goals = { { 2, 2 } } }))
    assert.equal("bad argument #3 to 'find_path' (x must be an integer in 1..4, got 5)",
      error_of(grid.find_path, grid, 1, 1, 5, 1))
    assert.equal(3, #grid:find_path(1, 1, 3, 1).nodes)
    assert.equal(2, grid:find_path(1, 1, { goals = { { 4, 4 }, { 2, 1 } } }).goal)
    assert.equal(2, grid:find_path(1, 1, nil, nil, { goals = { { 4, 4 }, { 2, 1 } } }).goal)
    local q = grid:query(1, 1, 3, 1)
    assert.equal("found", (q:step()))
    assert.equal("bad argument #4 to 'query' (number expected, got nil)", error_of(grid.query, grid, 1, 1, 2, nil))
  end)
end)

describe("path tables made for their fields", function()
  it("have exactly their fields with every option that adds one, and take xy after", function()
    local grid = astar.grid(12, 8)
    grid:set_blocked(5, 4, true)
    local base = "cost expanded generated length nodes reopened version width"
    local cases = {
      { {}, base },
      { { size = 2 }, base .. " size" },
      { { visited = true }, base .. " visited" },
      { { trace = true, algorithm = "astar" }, base .. " trace" },
      { { smooth = true }, base .. " points" },
      { { partial = true, max_expansions = 2 }, base .. " partial reason" },
      { { partial = true }, base },
      { { goals = { { 12, 8 }, { 10, 1 } } }, base .. " goal" },
      { { size = 2, visited = true, trace = true, partial = true, max_expansions = 3, algorithm = "astar" },
        base .. " partial reason size trace visited" },
    }
    for i, c in ipairs(cases) do
      local p = c[1].goals and grid:find_path(1, 1, c[1]) or grid:find_path(1, 1, 11, 7, c[1])
      assert.equal(sorted(c[2]), keys(p), "case " .. i)
      assert.equal("astar.GridPath", getmetatable(p).__name)
      assert.is_nil(rawget(p, "xy")) -- built on first access only
      local xy = p.xy
      assert.equal(#p.nodes, #xy)
      assert.equal(rawget(p, "xy"), xy)
      assert.equal(sorted(c[2] .. " xy"), keys(p))
      p.extra = true -- an ordinary table still
      assert.is_true(p.extra)
    end
    local blocked = astar.grid(6, 6)
    blocked:set_blocked(1, 1, true)
    local p = blocked:find_path(1, 1, 6, 6, { start_blocked = "escape" })
    assert.equal(sorted(base .. " escape"), keys(p))
    local g = astar.graph()
    for i = 1, 4 do g:add_node(i, 0) end
    for i = 1, 3 do g:add_edge(i, i + 1, 1) end
    assert.equal("cost edges expanded generated nodes reopened version", keys(g:find_path(1, 4)))
    assert.equal("cost edges expanded generated nodes reopened version visited",
      keys(g:find_path(1, 4, { visited = true })))
  end)
end)

describe("the default heuristic's registered name", function()
  it("is looked up from the first registration of a built-in name on (a fresh Lua state)", function()
    -- in a process of its own: here, other specs may have registered one already
    local script = [[
      local astar = require("astar")
      local grid = astar.grid(12, 12)
      local before = grid:find_path(1, 1, 12, 7, { algorithm = "astar" }).expanded
      local calls = 0
      astar.register_heuristic("spec_name", function() return 0 end)
      assert(grid:find_path(1, 1, 12, 7, { algorithm = "astar" }).expanded == before)
      astar.register_heuristic("octile", function() calls = calls + 1; return 0 end, { override = true })
      local zero = grid:find_path(1, 1, 12, 7, { algorithm = "astar", heuristic = "zero" }).expanded
      local now = grid:find_path(1, 1, 12, 7, { algorithm = "astar" }).expanded
      assert(calls > 0 and now == zero and now > before, "the override applies to the default")
      astar.register_heuristic("octile", nil, { override = true })
      calls = 0
      assert(grid:find_path(1, 1, 12, 7, { algorithm = "astar" }).expanded == before and calls == 0)
      io.write("ok")
    ]]
    assert.equal("ok", alone(script))
  end)
end)

describe("a topology's class check (src/ltopo.c topo_class_of)", function()
  -- The module state knows each class's metatable by pointer; a metatable
  -- made by an earlier luaopen (the registry's replaced in between) is still
  -- read by its class field.  In a process of its own: it reloads the module.
  it("serves grids of a metatable made before the module was opened again", function()
    local script = [[
      local astar = require("astar")
      local old, graph = astar.grid(6, 6), astar.graph()
      local old_mt = getmetatable(old)
      debug.getregistry()["astar.Grid"] = nil -- the next luaopen makes its own
      for k in pairs(package.loaded) do
        if k == "astar" or k:match("^astar%.") then package.loaded[k] = nil end
      end
      local astar2 = require("astar")
      local new = astar2.grid(6, 6)
      assert(getmetatable(new) ~= old_mt, "a new metatable")
      local find = getmetatable(new).__index.find_path
      for _, g in ipairs({ old, new }) do
        assert(#g:find_path(1, 1, 6, 6).nodes == 6)
        assert(#find(g, 1, 1, 6, 6).nodes == 6)
        assert(#old_mt.__index.find_path(g, 1, 1, 6, 6).nodes == 6)
        g:set_blocked(3, 3, true)
        assert(g:is_blocked(3, 3))
      end
      local ok, err = pcall(find, graph, 1, 1, 6, 6)
      assert(not ok and err:find("astar.Grid expected, got astar.Graph", 1, true), err)
      ok, err = pcall(old_mt.__index.find_path, astar2.graph(), 1, 1, 6, 6)
      assert(not ok and err:find("astar.Grid expected, got astar.Graph", 1, true), err)
      io.write("ok")
    ]]
    assert.equal("ok", alone(script))
  end)
end)
