-- A heuristic written in Lua (issue 19, item 5): what the binding's bridge
-- hands it and how often.  The bridge pushes a grid cell's x, y and the
-- goal's gx, gy itself (the goal's worked out once per goal), so these pin
-- what the callback sees: the right cells and goal on every grid, query and
-- algorithm, once per node a search generates (never twice for the same
-- node of a query, the goal's asked once), and the same answer as the
-- built-in estimate it copies.  (Its errors while finalizers run:
-- spec/lifetime/heuristic_errors_spec.lua, which make memcheck runs.)
local astar = require("astar")
local helpers = require("helpers")
local rng, random_grid = helpers.rng, helpers.random_grid

local DIAG_EXTRA = astar.DIAGONAL - 1

-- A Lua octile heuristic that records its calls: per cell "x,y" the number
-- of calls; every call's goal must be (gx, gy).
local function recorder(gx, gy)
  local rec = { calls = 0, seen = {}, twice = 0, bad_goal = 0, bad_type = 0 }
  rec.h = function(x, y, hx, hy)
    rec.calls = rec.calls + 1
    if hx ~= gx or hy ~= gy then rec.bad_goal = rec.bad_goal + 1 end
    if math.type and (math.type(x) ~= "integer" or math.type(hx) ~= "integer") then
      rec.bad_type = rec.bad_type + 1
    end
    local k = x .. "," .. y
    if rec.seen[k] then rec.twice = rec.twice + 1 end
    rec.seen[k] = true
    local dx, dy = x - hx, y - hy
    if dx < 0 then dx = -dx end
    if dy < 0 then dy = -dy end
    if dx < dy then return DIAG_EXTRA * dx + dy end
    return DIAG_EXTRA * dy + dx
  end
  return rec
end

-- A random open cell of g: from the list of g's open cells, made once per grid.
local open_lists = setmetatable({}, { __mode = "k" })
local function open_cell(r, g)
  local list = open_lists[g]
  if not list then
    list = {}
    local w, h = g:size()
    for y = 1, h do
      for x = 1, w do
        if not g:is_blocked(x, y) then list[#list + 1] = { x, y } end
      end
    end
    open_lists[g] = list
  end
  local c = list[r(1, #list)]
  return c[1], c[2]
end

local function check_calls(rec, p, label)
  assert.equal(0, rec.bad_goal, label .. ": every call names the goal")
  assert.equal(0, rec.bad_type, label .. ": integer arguments")
  assert.equal(0, rec.twice, label .. ": no cell asked twice")
  assert.equal(p.generated, rec.calls, label .. ": one call per generated node")
end

describe("a Lua heuristic", function()
  it("is called once per generated cell, with the cell and the goal, and answers as the built-in octile", function()
    local r = rng(19)
    for _, algorithm in ipairs({ "auto", "astar", "jps", "jps+" }) do
      local g = random_grid(r, 61, 47, 0.25)
      if algorithm == "jps+" then g:precompute_jumps() end
      local n = 0
      for _ = 1, 40 do
        local sx, sy = open_cell(r, g)
        local gx, gy = open_cell(r, g)
        local rec = recorder(gx, gy)
        local label = ("%s (%d, %d) -> (%d, %d)"):format(algorithm, sx, sy, gx, gy)
        local want = g:find_path(sx, sy, gx, gy, { algorithm = algorithm })
        local got, why = g:find_path(sx, sy, gx, gy, { algorithm = algorithm, heuristic = rec.h })
        if want then
          n = n + 1
          assert(got, label .. ": " .. tostring(why))
          check_calls(rec, got, label)
          -- the same estimate, the same search: cost, cells and counts
          assert.equal(want.cost, got.cost, label)
          assert.same(want.nodes, got.nodes, label)
          assert.equal(want.expanded, got.expanded, label)
          assert.equal(want.generated, got.generated, label)
        else
          assert.is_nil(got, label)
          assert.equal(0, rec.bad_goal, label)
          assert.equal(0, rec.twice, label)
        end
      end
      assert(n >= 20, algorithm .. ": too few reachable pairs (" .. n .. ")")
    end
  end)

  it("sees each find_path's own goal: a goal that changes between calls on one grid", function()
    local g = astar.grid(30, 30)
    local r = rng(7)
    for _ = 1, 30 do
      local gx, gy = r(1, 30), r(1, 30)
      local rec = recorder(gx, gy)
      local p = assert(g:find_path(r(1, 30), r(1, 30), gx, gy, { heuristic = rec.h }))
      check_calls(rec, p, ("goal (%d, %d)"):format(gx, gy))
    end
  end)

  it("is asked once per node of a query stepped in slices, and for its own goal beside another query", function()
    local r = rng(5)
    local g = random_grid(r, 50, 50, 0.2)
    local ax, ay = open_cell(r, g)
    local bx, by = open_cell(r, g)
    local s1x, s1y = open_cell(r, g)
    local s2x, s2y = open_cell(r, g)
    local ra, rb = recorder(ax, ay), recorder(bx, by)
    local qa = g:query(s1x, s1y, ax, ay, { heuristic = ra.h, algorithm = "astar" })
    local qb = g:query(s2x, s2y, bx, by, { heuristic = rb.h, algorithm = "astar" })
    local sa, sb = "searching", "searching"
    while sa == "searching" or sb == "searching" do
      if sa == "searching" then sa = qa:step(3) end
      if sb == "searching" then sb = coroutine.wrap(function() return qb:step(2) end)() end
    end
    for _, c in ipairs({ { qa, ra, "a" }, { qb, rb, "b" } }) do
      local p = c[1]:result()
      if p then
        check_calls(c[2], p, "query " .. c[3])
      else
        assert.equal(0, c[2].bad_goal)
        assert.equal(0, c[2].twice)
      end
    end
  end)

  it("on hex grids and graphs gets the class's own arguments", function()
    local hx = astar.hex(12, 9)
    local rec = recorder(10, 7)
    local p = assert(hx:find_path(2, 3, 10, 7, { heuristic = rec.h }))
    assert.equal(0, rec.bad_goal)
    assert.equal(0, rec.twice)
    assert.equal(p.generated, rec.calls)
    local gr = astar.graph()
    for i = 1, 6 do gr:add_node(i, 0) end
    for i = 1, 5 do gr:add_edge(i, i + 1, 1) end
    local args = {}
    assert.equal(5, gr:find_path(1, 6, { heuristic = function(n, goal)
      args[#args + 1] = { n, goal }
      return 6 - n
    end }).cost)
    for _, a in ipairs(args) do assert.equal(6, a[2]) end
    assert.equal(6, #args) -- every node once
  end)
end)
