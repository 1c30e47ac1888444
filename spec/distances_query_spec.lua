-- grid:distances_query / graph:distances_query: distances a slice at a time,
-- equal to distances(); an edit between steps restarts the computation.
local astar = require("astar")
local worlds = require("worlds")
local error_of = require("helpers").error_of

local function run(q, n)
  local steps, st = 0
  repeat
    st = q:step(n)
    steps = steps + 1
  until st ~= "searching"
  return st, steps
end

describe("grid:distances_query", function()
  it("gives the field distances() gives, whatever the slices (every rule, options)", function()
    for seed = 1, 16 do
      local world = worlds.random_grid(seed, { width = { 5, 20 }, height = { 5, 20 }, density = 0.3,
        costed = 0.2, costs = { 0.5, 2 }, tagged = 0.1, tags = { "mud" } })
      local g, r = world.g, world.r
      local opts = { direction = seed % 2 == 0 and "from_sources" or nil,
        costs = seed % 3 == 0 and { mud = 3 } or nil, max_cost = seed % 5 == 0 and 6 or nil }
      if seed % 4 == 0 then opts.penalty = worlds.random_field(world, function() return r(0, 2) end) end
      local sources = { { r(1, world.w), r(1, world.h) }, { r(1, world.w), r(1, world.h) } }
      local q = g:distances_query(sources, opts)
      assert.equal("searching", q:status())
      assert.same({ nil, "searching" }, { q:result() })
      local st, steps = run(q, r(1, 7))
      assert.equal("done", st)
      assert.equal("done", q:status())
      assert.equal("done", q:step()) -- final: stays done
      local f, want = q:result(), g:distances(sources, opts)
      assert.is_true(steps > 1 or world.w * world.h < 8)
      for y = 1, world.h do
        for x = 1, world.w do assert.equal(want:get(x, y), f:get(x, y)) end
      end
      assert.equal(f, (q:result())) -- the same field every time
    end
  end)

  it("restarts on an edit between steps: the result is the map as it is at the end", function()
    local g = astar.grid(30, 30)
    local q = g:distances_query({ { 1, 1 } })
    assert.equal("searching", q:step(200))
    for y = 1, 29 do g:set_blocked(15, y, true) end
    assert.equal("searching", q:step(10))
    local pen = astar.field(g, 0)
    local q2 = g:distances_query({ { 1, 1 } }, { penalty = pen })
    q2:step(100)
    pen:set(2, 1, 5)                -- a field it reads changed: repaired too
    assert.equal("done", run(q, 100))
    assert.equal("done", run(q2, 100))
    assert.equal(g:distances({ { 1, 1 } }):get(30, 1), q:result():get(30, 1))
    assert.equal(g:distances({ { 1, 1 } }, { penalty = pen }):get(3, 1), q2:result():get(3, 1))
    -- the field it gives is repairable like any distance field
    local f = q:result()
    g:set_blocked(15, 30, true)
    assert.is_true(f:stale())
    assert.equal("repaired", f:update())
    assert.equal(math.huge, f:get(30, 1))
  end)

  it("follows the query lifetime rules: cancel, closed grid, errors", function()
    local g = astar.grid(10, 10)
    local q = g:distances_query({ { 1, 1 } })
    q:step(5)
    q:cancel()
    assert.equal("cancelled", q:step())
    assert.same({ nil, "cancelled", {} }, { q:result() })
    q = g:distances_query({ { 1, 1 } })
    q:step(5)
    g:close()
    assert.equal("cancelled", q:step())
    assert.equal("attempt to use a closed grid", error_of(g.distances_query, g, { { 1, 1 } }))
    g = astar.grid(5, 3)
    local bad = {
      { {}, nil, "bad argument #1 to 'distances_query' (sources must be a non-empty list)" },
      { 5, nil, "bad argument #1 to 'distances_query' (table (a list of sources) expected, got number)" },
      { { { 6, 1 } }, nil,
        "bad argument #1 to 'distances_query' (sources[1] must be a cell {x, y} inside the 5x3 grid, got table)" },
      { { { 1, 1 } }, { heuristic = "octile" },
        "bad argument #2 to 'distances_query' (option \"heuristic\" does not apply to distances)" },
      { { { 1, 1 } }, { bogus = 1 }, "bad argument #2 to 'distances_query' (unknown option \"bogus\")" },
    }
    for _, c in ipairs(bad) do assert.equal(c[3], error_of(g.distances_query, g, c[1], c[2])) end
    -- a cost callback that raises: the error reaches the caller, the query says it failed
    q = g:distances_query({ { 1, 1 } }, { cost = function() error("boom") end })
    local ok, err = pcall(q.step, q)
    assert.is_false(ok)
    assert.matches("boom", err)
    assert.equal("this query failed (an error was raised while it ran): start a new one",
      error_of(q.step, q))
    -- an edit from inside its own step is refused (the grid is being searched)
    q = g:distances_query({ { 1, 1 } }, { cost = function(_, _, _, _, c) g:set_blocked(5, 3, true) return c end })
    assert.equal("cannot call 'set_blocked': grid is being searched", (error_of(q.step, q)))
  end)
end)

describe("graph:distances_query", function()
  it("gives dist, toward as distances() does", function()
    for seed = 1, 12 do
      local world = worlds.random_graph(seed, 30, 80, { cost = function(r) return r(1, 5) end, disabled = 0.1 })
      local g = world.g
      local opts = seed % 2 == 0 and { direction = "from_sources" } or nil
      local q = g:distances_query({ 1, 2 }, opts)
      assert.equal("done", (run(q, 3)))
      local d, t = q:result()
      local wd, wt = g:distances({ 1, 2 }, opts)
      assert.same(wd, d)
      assert.same(wt, t)
    end
    local g = astar.graph()
    g:add_node(0, 0)
    assert.equal("bad argument #1 to 'distances_query' (sources[1] must be a node id in 1..1, got 2)",
      error_of(g.distances_query, g, { 2 }))
  end)
end)
