-- What find_path returns, field by field, against a recomputation in Lua:
-- path.nodes (every cell, each a neighbour of the one before, none blocked,
-- start first and goal last), path.length and path.cost (each the sum of
-- the steps in path order, compared with ==: the binding sums them the
-- same way, so they agree to the bit), path.xy and path.width, the
-- visited list (the trace's nodes, in order) and graphs' edges.  Random
-- grids, square under every diagonal rule and every algorithm that serves
-- the rule, hex in every layout, units of size 1 and 2, partial paths,
-- batches, and lists of every length around the binding's change of
-- method (a list of 6 values or more is built by one table constructor,
-- shorter ones and very long ones value by value: see lresult.c).

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, ipairs, math, rawget, type = assert, ipairs, math, rawget, type
local astar = require("astar")
local lcg = require("helpers").lcg

local DIAG = astar.DIAGONAL

-- The cells next to (x, y) (neighbours lists them, blocked or not).
local function adjacent(g, x1, y1, x2, y2)
  for _, c in ipairs(g:neighbours(x1, y1)) do
    if c[1] == x2 and c[2] == y2 then return true end
  end
  return false
end

-- Checks path p from (sx, sy) to (gx, gy) (nil: a partial path's end) on
-- grid g (square when `square`) against a recomputation; returns the cost
-- its steps sum to (each step's length times the entered cell's cost).
local function check_path(g, p, sx, sy, gx, gy, square, label)
  local w = g:size()
  local nodes = p.nodes
  assert(type(nodes) == "table", label .. ": no nodes")
  local n = #nodes
  assert(n >= 1, label .. ": empty path")
  assert(p.width == w, label .. ": width")
  assert(nodes[1] == g:id(sx, sy), label .. ": the first node is not the start")
  if gx then assert(nodes[n] == g:id(gx, gy), label .. ": the last node is not the goal") end
  local xy = p.xy
  assert(#xy == n, label .. ": #xy")
  local length, cost = 0, 0
  for i = 1, n do
    local id = nodes[i]
    assert(math.type == nil or math.type(id) == "integer", label .. ": a node is not an integer")
    local x, y = g:xy(id)
    assert(xy[i][1] == x and xy[i][2] == y, label .. ": xy differs from nodes at " .. i)
    assert(not g:is_blocked(x, y), label .. ": a blocked cell on the path")
    if i > 1 then
      local px, py = g:xy(nodes[i - 1])
      assert(adjacent(g, px, py, x, y), ("%s: step %d (%d, %d) -> (%d, %d) is no step"):format(label, i - 1, px, py, x, y))
      local step = (square and px ~= x and py ~= y) and DIAG or 1
      length = length + step
      cost = cost + step * g:get_cost(x, y)
    end
  end
  assert(rawget(p, "length") == length, ("%s: length %.17g, the steps sum to %.17g"):format(label, p.length, length))
  return cost
end

-- A random grid: blocked cells at density d, some cells with costs when
-- `costs` (the general loop then), from seed.
local function random_grid(make, w, h, d, seed, costs)
  local r = lcg(seed)
  local g = make(w, h)
  for y = 1, h do
    for x = 1, w do
      if r() < d then g:set_blocked(x, y, true) end
      if costs and r() < 0.3 then g:set_cost(x, y, 1 + math.floor(r() * 8) / 4) end
    end
  end
  return g, r
end

local function open_cell(g, r)
  local w, h = g:size()
  for _ = 1, 1000 do
    local x, y = 1 + math.floor(r() * w), 1 + math.floor(r() * h)
    if not g:is_blocked(x, y) then return x, y end
  end
end

-- Runs `queries` random queries on g with opts, checking every path found.
local function check_queries(g, r, opts, square, queries, label, stats)
  for q = 1, queries do
    local sx, sy = open_cell(g, r)
    local gx, gy = open_cell(g, r)
    local p, reason = g:find_path(sx, sy, gx, gy, opts)
    if p then
      local cost = check_path(g, p, sx, sy, gx, gy, square, ("%s, query %d"):format(label, q))
      if (opts.size or 1) == 1 then
        assert(p.cost == cost, ("%s, query %d: cost %.17g, the steps sum to %.17g"):format(label, q, p.cost, cost))
      end
      stats.found = stats.found + 1
      stats.cells = stats.cells + #p.nodes
    else
      assert(reason == "unreachable", label .. ": " .. tostring(reason))
    end
  end
end

describe("find_path's result against a recomputation in Lua", function()
  local algorithms = {
    never = { "auto", "astar", "jps" },
    no_corner_cutting = { "auto", "astar", "jps", "jps+" },
    one_obstacle = { "auto", "astar" },
    always = { "auto", "astar" },
  }

  for _, rule in ipairs({ "never", "no_corner_cutting", "one_obstacle", "always" }) do
    it("square grids, diagonal " .. rule .. ": nodes, length and cost of every algorithm", function()
      local stats = { found = 0, cells = 0 }
      for seed = 1, 6 do
        local make = function(w, h) return astar.grid(w, h, { diagonal = rule }) end
        local g, r = random_grid(make, 23 + seed, 17 + 2 * seed, 0.25, seed * 7919)
        if rule == "no_corner_cutting" then g:precompute_jumps() end
        for _, a in ipairs(algorithms[rule]) do
          check_queries(g, r, { algorithm = a }, true, 12, ("%s seed %d %s"):format(rule, seed, a), stats)
        end
        local sized = rule == "never" and { "astar" } or { "astar", "jps" }
        if rule == "no_corner_cutting" or rule == "never" then
          for _, a in ipairs(sized) do
            check_queries(g, r, { algorithm = a, size = 2 }, true, 8, ("%s seed %d size 2 %s"):format(rule, seed, a), stats)
          end
        else
          check_queries(g, r, { size = 2 }, true, 8, ("%s seed %d size 2"):format(rule, seed), stats)
        end
        local gc = random_grid(make, 19, 21, 0.2, seed * 104729, true)
        check_queries(gc, r, {}, true, 10, ("%s seed %d costs"):format(rule, seed), stats)
      end
      assert(stats.found > 100 and stats.cells > 1500, ("too few paths: %d, %d cells"):format(stats.found, stats.cells))
    end)
  end

  for _, layout in ipairs({ "odd_r", "even_r", "odd_q", "even_q" }) do
    it("hex grids, layout " .. layout .. ": nodes, length and cost", function()
      local stats = { found = 0, cells = 0 }
      for seed = 1, 6 do
        local make = function(w, h) return astar.hex(w, h, { layout = layout }) end
        local g, r = random_grid(make, 21 + seed, 15 + seed, 0.25, seed * 6271)
        check_queries(g, r, {}, false, 15, ("%s seed %d"):format(layout, seed), stats)
        check_queries(g, r, { size = 2 }, false, 8, ("%s seed %d size 2"):format(layout, seed), stats)
        local gc = random_grid(make, 17, 19, 0.2, seed * 3571, true)
        check_queries(gc, r, {}, false, 10, ("%s seed %d costs"):format(layout, seed), stats)
      end
      assert(stats.found > 60 and stats.cells > 800, ("too few paths: %d, %d cells"):format(stats.found, stats.cells))
    end)
  end

  it("paths of every length from 1 to 40 cells, on both sides of the list builder's switch", function()
    for _, shape in ipairs({ "grid", "hex" }) do
      local g = astar[shape](45, 3)
      for len = 1, 40 do
        local p = assert(g:find_path(1, 2, len, 2))
        assert(#p.nodes == len, shape .. ": #nodes")
        for i = 1, len do assert(p.nodes[i] == g:id(i, 2), shape .. ": a node") end
        assert(p.nodes[len + 1] == nil and p.nodes[0] == nil)
        assert(next(p.nodes, len) == nil, shape .. ": a key after the list")
        check_path(g, p, 1, 2, len, 2, shape == "grid", shape .. " len " .. len)
        assert(p.cost == len - 1 and p.length == len - 1)
      end
    end
  end)

  it("a path of more than 65536 cells (listed value by value) equals its recomputation", function()
    -- a serpentine: 70 rows of 1001 cells joined at alternate ends
    local w, h = 1001, 139
    local g = astar.grid(w, h, { diagonal = "never" })
    for y = 2, h - 1, 2 do
      if y % 4 == 2 then g:set_blocked_rect(1, y, w - 1, y, true)
      else g:set_blocked_rect(2, y, w, y, true) end
    end
    local p = assert(g:find_path(1, 1, w, h, { algorithm = "astar" }))
    assert(#p.nodes > 65536, "#nodes " .. #p.nodes)
    local cost = check_path(g, p, 1, 1, w, h, true, "serpentine")
    assert(p.cost == cost and p.length == #p.nodes - 1)
  end)

  it("partial paths and batches list the same cells as find_path", function()
    local make = function(w, h) return astar.grid(w, h) end
    local g, r = random_grid(make, 30, 30, 0.3, 424242)
    g:set_blocked_rect(1, 15, 30, 15, true) -- two halves
    local requests, want = {}, {}
    for i = 1, 40 do
      local sx, sy = open_cell(g, r)
      local gx, gy = open_cell(g, r)
      requests[i] = { sx, sy, gx, gy }
      local p = g:find_path(sx, sy, gx, gy, { partial = true })
      if p then
        check_path(g, p, sx, sy, not p.partial and gx or nil, gy, true, "partial " .. i)
      end
      want[i] = p or false
    end
    local paths = astar.batch(g, requests, { partial = true, threads = 2 })
    for i = 1, #requests do
      local a, b = want[i], paths[i]
      assert((a == false) == (b == false), "batch " .. i)
      if a then
        assert(a.cost == b.cost and a.length == b.length and #a.nodes == #b.nodes, "batch " .. i)
        for k = 1, #a.nodes do assert(a.nodes[k] == b.nodes[k], "batch " .. i) end
        assert(getmetatable(a) == getmetatable(b), "batch " .. i .. ": metatable")
      end
    end
  end)

  it("the visited list is the trace's nodes, in order, on grids and graphs", function()
    local make = function(w, h) return astar.grid(w, h) end
    local g, r = random_grid(make, 40, 40, 0.25, 777)
    local count = 0
    for q = 1, 20 do
      local sx, sy = open_cell(g, r)
      local gx, gy = open_cell(g, r)
      for _, a in ipairs({ "astar", "jps" }) do
        local p, _, st = g:find_path(sx, sy, gx, gy, { algorithm = a, visited = true, trace = true })
        local rec = p or st
        assert(#rec.visited == #rec.trace and #rec.visited == rec.expanded, "query " .. q)
        for i, t in ipairs(rec.trace) do assert(rec.visited[i] == t.node, "query " .. q) end
        count = count + #rec.visited
      end
    end
    assert(count > 1000, "visited " .. count)
  end)

  it("graph paths: nodes and edges, each edge joining the nodes beside it", function()
    local r = lcg(99)
    local gr = astar.graph()
    local n = 60
    for _ = 1, n do gr:add_node(r() * 100, r() * 100) end
    for i = 2, n do gr:connect(i, 1 + math.floor(r() * (i - 1)), 1 + r() * 50) end
    for _ = 1, 2 * n do
      local a, b = 1 + math.floor(r() * n), 1 + math.floor(r() * n)
      if a ~= b then gr:add_edge(a, b, 1 + r() * 50) end
    end
    local longest = 0
    for q = 1, 60 do
      local a, b = 1 + math.floor(r() * n), 1 + math.floor(r() * n)
      local p = assert(gr:find_path(a, b), "query " .. q)
      assert(p.nodes[1] == a and p.nodes[#p.nodes] == b and #p.edges == #p.nodes - 1)
      local cost = 0
      for i, e in ipairs(p.edges) do
        local from, to, c = gr:edge(e)
        assert(from == p.nodes[i] and to == p.nodes[i + 1], "query " .. q .. ": edge " .. i)
        cost = cost + c
      end
      assert(p.cost == cost, ("query %d: cost %.17g, the edges sum to %.17g"):format(q, p.cost, cost))
      longest = math.max(longest, #p.nodes)
    end
    assert(longest >= 7, "no path long enough for the constructor: " .. longest)
  end)
end)
