-- Hostile input to find_path's and query's goals = {...}: each a clear error
-- naming the function, the argument and the value, or a defined answer; the
-- grid stays usable.
local astar = require("astar")
local error_of = require("helpers").error_of

local function msg(fn, ...)
  local err = error_of(fn, ...)
  return type(err) == "string" and err:gsub("^[^\n]-:%d+: ", "", 1) or err
end

local function fresh()
  local g = astar.grid(8, 8)
  for y = 2, 7 do g:set_blocked(4, y, true) end
  return g
end

local function still_works(g)
  local p = assert(g:find_path(1, 1, 1, 8))
  assert.is_true(p.cost > 0)
  assert.equal(1, assert(g:find_path(1, 1, { goals = { { 1, 1 } } })).goal)
end

describe("hostile goals", function()
  for _, fname in ipairs({ "find_path", "query" }) do
    local function call(g, ...) return g[fname](g, ...) end

    it(fname .. ": not a list, empty, bad entries, out of range", function()
      local g = fresh()
      local pre = "bad argument #3 to '" .. fname .. "' ("
      local cell = "a cell {x, y} inside the 8x8 grid, got "
      local cases = {
        { { goals = {} }, pre .. "goals must be a non-empty list)" },
        { { goals = 7 }, pre .. "goals must be a non-empty list of cells {x, y}, got 7)" },
        { { goals = "ab" }, pre .. "goals must be a non-empty list of cells {x, y}, got \"ab\")" },
        { { goals = true }, pre .. "goals must be a non-empty list of cells {x, y}, got true)" },
        { { goals = { { 9, 1 } } }, pre .. "goals[1] must be " .. cell .. "table)" },
        { { goals = { { 1, 1 }, { 0, 0 } } }, pre .. "goals[2] must be " .. cell .. "table)" },
        { { goals = { { 1.5, 1 } } }, pre .. "goals[1] must be " .. cell .. "table)" },
        { { goals = { 3 } }, pre .. "goals[1] must be " .. cell .. "3)" },
        { { goals = { { "1", "1" } } }, pre .. "goals[1] must be " .. cell .. "table)" },
        { { goals = { { 1, 1 }, false } }, pre .. "goals[2] must be " .. cell .. "false)" },
      }
      for _, c in ipairs(cases) do
        assert.equal(c[2], msg(g[fname], g, 1, 1, c[1]))
      end
      still_works(g)
    end)

    it(fname .. ": a goal argument and goals together; neither", function()
      local g = fresh()
      assert.equal("bad argument #5 to '" .. fname .. "' (goals cannot be combined with a goal argument (leave the goal out, or nil))",
        msg(g[fname], g, 1, 1, 8, 8, { goals = { { 8, 8 } } }))
      assert.equal("bad argument #3 to '" .. fname .. "' (a goal (or options.goals) expected, got table)",
        msg(g[fname], g, 1, 1, {}))
      assert.equal("bad argument #3 to '" .. fname .. "' (number expected, got nil)",
        msg(g[fname], g, 1, 1, nil, nil, { costs = {} }))
      still_works(g)
    end)

    it(fname .. ": options that cannot be combined with goals name the option", function()
      local g = fresh()
      local goals = { { 8, 8 } }
      for _, o in ipairs({ { heuristic = "zero" }, { weight = 2 }, { stop = "first_hit" }, { tie_break = "fifo" },
        { partial = true }, { any_angle = true } }) do
        local name = next(o)
        o.goals = goals
        assert.equal("bad argument #3 to '" .. fname .. "' (option \"" .. name
          .. "\" cannot be combined with goals (the search to the nearest of several goals is Dijkstra's))",
          msg(g[fname], g, 1, 1, o))
      end
      assert.equal("bad argument #3 to '" .. fname .. "' (algorithm \"jps\" cannot be combined with goals"
        .. " (\"auto\" takes jump point search where it serves))",
        msg(g[fname], g, 1, 1, { goals = goals, algorithm = "jps" }))
      assert.truthy(call(g, 1, 1, { goals = goals, partial = false })) -- false: not asked
      still_works(g)
    end)
  end

  it("the other searches refuse goals by name", function()
    local g = fresh()
    assert.equal("bad argument #3 to 'batch' (option \"goals\" is only for find_path and query, got table)",
      msg(astar.batch, g, { { 1, 1, 8, 8 } }, { goals = { { 1, 1 } } }))
    assert.equal("bad argument #2 to 'distances' (option \"goals\" is only for find_path and query, got table)",
      msg(g.distances, g, { { 1, 1 } }, { goals = { { 1, 1 } } }))
    still_works(g)
  end)

  it("graphs: goals are node ids", function()
    local gr = astar.graph()
    for i = 1, 3 do gr:add_node(i, 0) end
    gr:connect(1, 2, 1)
    assert.equal("bad argument #2 to 'find_path' (goals[2] must be a node id in 1..3, got 4)",
      msg(gr.find_path, gr, 1, { goals = { 2, 4 } }))
    assert.equal("bad argument #3 to 'query' (goals[1] must be a node id in 1..3, got table)",
      msg(gr.query, gr, 1, nil, { goals = { { 1, 1 } } }))
    assert.equal("bad argument #2 to 'find_path' (goals must be a non-empty list of node ids, got 2)",
      msg(gr.find_path, gr, 1, { goals = 2 }))
    assert.equal("unreachable", select(2, gr:find_path(1, { goals = { 3 } })))
    assert.equal(2, gr:find_path(1, { goals = { 3, 2 } }).goal)
  end)

  it("blocked goals, duplicates, the start among them, huge lists: defined answers", function()
    local g = fresh()
    g:set_blocked(8, 8, true)
    local p, why = g:find_path(1, 1, { goals = { { 8, 8 }, { 4, 4 } } })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    p = assert(g:find_path(1, 1, { goals = { { 8, 8 }, { 2, 2 }, { 2, 2 } } }))
    assert.equal(2, p.goal) -- the first entry naming it
    p = assert(g:find_path(1, 1, { goals = { { 5, 5 }, { 1, 1 } } }))
    assert.equal(2, p.goal)
    assert.equal(1, #p.nodes)
    local many = {}
    for i = 1, 100000 do many[i] = { (i % 8) + 1, ((i * 7) % 8) + 1 } end
    p = assert(g:find_path(8, 1, { goals = many }))
    assert.is_true(p.goal >= 1 and p.goal <= #many)
    local q = g:query(8, 1, { goals = many })
    assert.equal("found", q:step())
    assert.equal(p.goal, q:result().goal)
    still_works(g)
  end)

  it("a callback that rewrites or empties the goals table: the answer is for the list as it was", function()
    local g = fresh()
    local goals = { { 8, 8 }, { 1, 8 } }
    local want = g:find_path(1, 1, { goals = { { 8, 8 }, { 1, 8 } } })
    local p = assert(g:find_path(1, 1, { goals = goals, cost = function(_, _, _, _, c)
      goals[1] = "junk"
      goals[2] = nil
      return c
    end }))
    assert.equal(want.goal, p.goal)
    assert.same(want.nodes, p.nodes)
    goals = { { 8, 8 }, { 1, 8 } }
    local q = g:query(1, 1, { goals = goals, cost = function(_, _, _, _, c)
      for k in pairs(goals) do goals[k] = nil end
      return c
    end })
    while q:step(2) == "searching" do goals[3] = 5 end
    assert.same(want.nodes, q:result().nodes)
    still_works(g)
  end)

  it("an error in a callback reaches the caller; the grid and a new query work", function()
    local g = fresh()
    local ok, err = pcall(g.find_path, g, 1, 1, { goals = { { 8, 8 } }, cost = function() error("boom", 0) end })
    assert.is_false(ok)
    assert.equal("boom", err)
    local q = g:query(1, 1, { goals = { { 8, 8 } }, cost = function() error({ "a table" }) end })
    ok, err = pcall(q.step, q)
    assert.is_false(ok)
    assert.same({ "a table" }, err)
    still_works(g)
  end)

  it("a proxy list (metatables are not read: raw entries only) is refused as empty", function()
    local g = fresh()
    local proxy = setmetatable({}, { __index = function() return { 1, 1 } end, __len = function() return 3 end })
    assert.equal("bad argument #3 to 'find_path' (goals must be a non-empty list)",
      msg(g.find_path, g, 1, 1, { goals = proxy }))
    still_works(g)
  end)

  it("goals read through an options __index (defaults) are honoured once", function()
    local g = fresh()
    local reads = 0
    local opts = setmetatable({}, { __index = function(_, k)
      if k == "goals" then reads = reads + 1; return { { 8, 8 } } end
    end })
    local p = assert(g:find_path(1, 1, opts))
    assert.equal(1, p.goal)
    assert.equal(1, reads)
  end)
end)
