-- The grid rules written out plainly in Lua, as an oracle for the specs that
-- compare the C search with a brute-force answer on small random worlds.
--
-- A world is { w, h, rule, blocked = {[id] = true}, cost = {[id] = c},
-- tag = {[id] = name} } with id = (y - 1) * w + x; the query options o may
-- hold costs (tag -> multiplier or false), pen (id -> penalty) with
-- penalty_scale, fb (id -> forbid value, nonzero forbids) and cost (the
-- per-step callback), and size: the unit's side (the k x k block of cells
-- whose top-left cell is the path's cell; nil: 1).
local D = require("astar").DIAGONAL

local oracle = {}

--- open(world, o, x, y): one cell inside the grid, not blocked, not forbidden
-- (by the forbid field, or by its tag's factor false: the two mean the same).
function oracle.open(world, o, x, y)
  if x < 1 or y < 1 or x > world.w or y > world.h then return false end
  local id = (y - 1) * world.w + x
  local tag = world.tag[id]
  if tag and o.costs and o.costs[tag] == false then return false end
  return not world.blocked[id] and not (o.fb and o.fb[id] ~= 0)
end

--- passable(world, o, x, y): the query's unit may stand at (x, y): every
-- cell of its block is open.
function oracle.passable(world, o, x, y)
  local k = o.size or 1
  for j = 0, k - 1 do
    for i = 0, k - 1 do
      if not oracle.open(world, o, x + i, y + j) then return false end
    end
  end
  return true
end

local passable = oracle.passable

-- The cost of entering open cell id by a step of length len.
local function cell_cost(world, o, id, len)
  local c = len * world.cost[id]
  local tag = world.tag[id]
  if tag and o.costs and o.costs[tag] ~= nil then c = c * o.costs[tag] end
  if o.pen then c = c + o.pen[id] * (o.penalty_scale or 1) end
  return c
end

--- step(world, o, x1, y1, x2, y2) -> the cost of the step under the rule
-- and the options, or nil when the step is not allowed.
function oracle.step(world, o, x1, y1, x2, y2)
  local dx, dy = x2 - x1, y2 - y1
  if math.max(math.abs(dx), math.abs(dy)) ~= 1 then return nil end
  if not passable(world, o, x1, y1) or not passable(world, o, x2, y2) then return nil end
  local diag = dx ~= 0 and dy ~= 0
  if diag then
    local a, b = passable(world, o, x1 + dx, y1), passable(world, o, x1, y1 + dy)
    if world.rule == "never" then return nil end
    if world.rule == "no_corner_cutting" and not (a and b) then return nil end
    if world.rule == "one_obstacle" and not (a or b) then return nil end
  end
  -- the most expensive cell of the block entered
  local c, k = nil, o.size or 1
  for j = 0, k - 1 do
    for i = 0, k - 1 do
      local cc = cell_cost(world, o, (y2 + j - 1) * world.w + x2 + i, diag and D or 1)
      if c == nil or cc > c then c = cc end
    end
  end
  if o.cost then
    c = o.cost(x1, y1, x2, y2, c)
    if c == false then return nil end
  end
  return c
end

local step = oracle.step

--- dijkstra(world, o, sx, sy) -> dist[id], the cheapest cost from (sx,sy)
-- to every cell (math.huge when unreachable). O(n^2), no heap: plain enough
-- to trust.
function oracle.dijkstra(world, o, sx, sy)
  local w, n = world.w, world.w * world.h
  local dist, done = {}, {}
  for i = 1, n do dist[i] = math.huge end
  if not passable(world, o, sx, sy) then return dist end
  dist[(sy - 1) * w + sx] = 0
  for _ = 1, n do
    local u, best = nil, math.huge
    for i = 1, n do
      if not done[i] and dist[i] < best then u, best = i, dist[i] end
    end
    if not u then break end
    done[u] = true
    local ux, uy = (u - 1) % w + 1, math.floor((u - 1) / w) + 1
    for dy = -1, 1 do
      for dx = -1, 1 do
        local c = step(world, o, ux, uy, ux + dx, uy + dy)
        if c then
          local v = u + dy * w + dx
          if dist[u] + c < dist[v] then dist[v] = dist[u] + c end
        end
      end
    end
  end
  return dist
end

return oracle
