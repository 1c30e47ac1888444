-- The planner sending units to the nearest of several goals (request with
-- to = nil and goals = {...}): the delivered paths are find_path's with
-- the same goals, from where each unit stood; an invalidated path is
-- searched again to the nearest goal from where the unit stands.
local astar = require("astar")
local lcg = require("helpers").lcg

-- results of updates until nothing is pending
local function drain(pl, budget)
  local got = {}
  for _ = 1, 1000 do
    for _, r in ipairs(pl:update(budget)) do got[#got + 1] = r end
    if pl:pending() == 0 then return got end
  end
  error("the planner did not finish")
end

describe("planner:request with goals", function()
  it("delivers find_path's path to the nearest goal, for every unit (grids, random maps)", function()
    local rng = lcg(1811)
    for _ = 1, 10 do
      local g = require("helpers").random_grid(rng, 30, 30, 0.2)
      local pl = astar.planner(g)
      local goals = {}
      for i = 1, 5 do goals[i] = { math.floor(rng() * 30) + 1, math.floor(rng() * 30) + 1 } end
      local units = {}
      for i = 1, 8 do
        units[i] = { x = math.floor(rng() * 30) + 1, y = math.floor(rng() * 30) + 1 }
        pl:request(units[i], { units[i].x, units[i].y }, nil, { goals = goals, size = i % 2 + 1 })
      end
      local seen = 0
      for _, r in ipairs(drain(pl, { expansions = 200 })) do
        local u = r.key
        local want, why = g:find_path(u.x, u.y, { goals = goals, size = (function()
          for i, v in ipairs(units) do if v == u then return i % 2 + 1 end end
        end)(), algorithm = "astar" })
        if want then
          assert.equal(want.cost, r.path.cost)
          assert.same(goals[r.path.goal], r.path.xy[#r.path.xy])
          assert.same({ u.x, u.y }, r.path.xy[1])
        else
          assert.is_nil(r.path)
          assert.equal(why, r.reason)
        end
        seen = seen + 1
      end
      assert.equal(8, seen)
    end
  end)

  it("searches again to the nearest goal from where the unit stands when a wall breaks its path", function()
    local g = astar.grid(30, 9)
    local unit = { x = 1, y = 5 }
    local pl = astar.planner(g, { locate = function(u) return u.x, u.y end })
    local goals = { { 30, 5 }, { 1, 9 } }
    pl:request(unit, { 1, 5 }, nil, { goals = goals })
    goals[2] = { 29, 5 } -- copied at the request: no effect
    local got = drain(pl, { expansions = 1000 })
    assert.equal(2, got[1].path.goal) -- (1, 9): 4 steps
    unit.y = 6
    g:set_blocked(1, 8, true)
    g:set_blocked(2, 8, true)
    local out = pl:update({ expansions = 1000 })
    assert.equal("invalidated", out[1].reason)
    local p = out[2].path
    assert.same({ 1, 6 }, p.xy[1])
    assert.equal(g:find_path(1, 6, { goals = { { 30, 5 }, { 1, 9 } } }).cost, p.cost)
    assert.equal(2, p.goal)
  end)

  it("graphs: goals are node ids; errors name request's arguments", function()
    local gr = astar.graph()
    for i = 1, 5 do gr:add_node(i, 0) end
    gr:connect(1, 2, 1); gr:connect(2, 3, 1); gr:connect(3, 4, 1); gr:connect(1, 5, 9)
    local pl = astar.planner(gr)
    pl:request("a", 1, nil, { goals = { 5, 4 } })
    local got = drain(pl, { expansions = 100 })
    assert.equal(2, got[1].path.goal)
    assert.equal(3, got[1].path.cost)
    assert.has_error(function() pl:request("b", 1, nil, { goals = { 9 } }) end,
      "bad argument #4 to 'request' (goals[1] must be a node id in 1..5, got 9)")
    local g = astar.grid(8, 8)
    local pg = astar.planner(g)
    assert.has_error(function() pg:request("b", { 1, 1 }, nil, { goals = {} }) end,
      "bad argument #4 to 'request' (goals must be a non-empty list)")
    assert.has_error(function() pg:request("b", { 1, 1 }, { 2, 2 }, { goals = { { 3, 3 } } }) end,
      "bad argument #4 to 'request' (goals cannot be combined with a goal argument (leave the goal out, or nil))")
    assert.has_error(function() pg:request("b", { 1, 1 }, nil, {}) end,
      "bad argument #3 to 'request' (to must be a table { x, y } of integers, got nil)")
    assert.equal(0, pg:pending())
  end)
end)
