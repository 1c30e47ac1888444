--- astar.follow: walking a grid path in world units.
--
-- Path methods (every path a grid or hex grid returns has them, through the
-- grid's path metatable, which also names the grid: `getmetatable(path).grid`):
--
--   path:point_at(d)       -> x, y, dx, dy: the point d world units along the
--                             path (clamped to its ends) and the unit vector of
--                             the direction there
--   path:project(wx, wy)   -> d, x, y: the distance along the path of its point
--                             closest to (wx, wy), and that point
--   path:world_length()    -> the path's length in world units
--
-- The path walked is `path.points` when the path has them (smooth, any_angle),
-- else its cells (`path.nodes`), each point the centre of its cell in the
-- grid's world frame (grid:to_world: cell_size, origin; hexagons too), joined
-- by straight lines.  It is read on first use and kept (a weak table, keyed by
-- the path); a path whose `points` or `nodes` table was replaced, or changed
-- length, is read again.
--
-- astar.follower(path [, opts]) -> a follower that walks a unit along a path
-- at a speed: f:update(dt) -> x, y, arrived; f:retarget(path) keeps the
-- unit's position.  See doc/reference.md ("Following a path").

local describe = require("astar.describe").value

local M = {}

local sqrt, huge = math.sqrt, math.huge
local cache = setmetatable({}, { __mode = "k" })

local floor = math.floor

-- Raises for the caller of the caller: argument n (0: the path a method was
-- called on, "calling 'point_at' on bad self (...)", as lauxlib words it).
-- level: the caller's level as error() counts from bad (bad 1, its caller 2 ...).
local function bad(n, fname, msg, level)
  if n == 0 then error(("calling '%s' on bad self (%s)"):format(fname, msg), level) end
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), level)
end

local function check_number(v, n, fname, name)
  if type(v) ~= "number" or v ~= v then
    bad(n, fname, ("%s must be a number, got %s"):format(name, describe(v)), 4)
  end
  return v
end

-- The walk of a path: world points xs, ys and the cumulative lengths cum
-- (cum[1] = 0), n points.
-- What to say when grid:to_world refused entry i of a path's list.
local function cell_error(list, i, err)
  err = tostring(err)
  if err:find("closed", 1, true) then return "the path's grid is closed" end
  return ("%s[%d] is not a cell of the path's grid (%s)"):format(list, i, err:match("%((.*)%)$") or err)
end

local function build(path, fname, an)
  if type(path) ~= "table" then
    bad(an, fname, ("path expected, got %s"):format(describe(path)), 5)
  end
  local mt = getmetatable(path)
  local grid = type(mt) == "table" and rawget(mt, "grid") or nil
  if grid == nil then
    bad(an, fname, "not a path of a grid or hex grid", 5)
  end
  local points, nodes = rawget(path, "points"), rawget(path, "nodes")
  local w = rawget(path, "width")
  local xs, ys, cum = {}, {}, { 0 }
  local n
  if type(points) == "table" then
    n = #points
    for i = 1, n do
      local p = points[i]
      if type(p) ~= "table" then
        bad(an, fname, ("path.points[%d] must be a cell {x, y}, got %s"):format(i, describe(p)), 5)
      end
      local ok, x, y = pcall(grid.to_world, grid, p[1], p[2])
      if not ok then bad(an, fname, cell_error("path.points", i, x), 5) end
      xs[i], ys[i] = x, y
    end
  elseif type(nodes) == "table" then
    if type(w) ~= "number" or w < 1 or w ~= floor(w) then
      bad(an, fname, ("path.width must be an integer >= 1, got %s"):format(describe(w)), 5)
    end
    n = #nodes
    for i = 1, n do
      local id = nodes[i]
      if type(id) ~= "number" or id < 1 or id ~= floor(id) then
        bad(an, fname, ("path.nodes[%d] must be a cell id, got %s"):format(i, describe(id)), 5)
      end
      local ok, x, y = pcall(grid.to_world, grid, (id - 1) % w + 1, floor((id - 1) / w) + 1)
      if not ok then bad(an, fname, cell_error("path.nodes", i, x), 5) end
      xs[i], ys[i] = x, y
    end
  else
    bad(an, fname, "the path has neither points nor nodes", 5)
  end
  if n == 0 then bad(an, fname, "the path is empty", 5) end
  for i = 2, n do
    local dx, dy = xs[i] - xs[i - 1], ys[i] - ys[i - 1]
    cum[i] = cum[i - 1] + sqrt(dx * dx + dy * dy)
  end
  return { xs = xs, ys = ys, cum = cum, n = n, points = points, nodes = nodes,
           count = n, length = cum[n] }
end

-- The walk of path, from the cache when still valid.
local function walk(path, fname, an)
  local wk = cache[path]
  if wk then
    local points, nodes = rawget(path, "points"), rawget(path, "nodes")
    if wk.points == points and wk.nodes == nodes and #(points or nodes) == wk.count then
      return wk
    end
  end
  wk = build(path, fname, an or 0)
  cache[path] = wk
  return wk
end
M.walk = walk

-- The segment i (1..n-1) holding distance d: cum[i] <= d <= cum[i + 1], by
-- bisection; i = n - 1 at the end, 1 on a one-segment path.
local function segment_at(wk, d)
  local lo, hi = 1, wk.n - 1
  local cum = wk.cum
  while lo < hi do
    local mid = floor((lo + hi + 1) / 2)
    if cum[mid] <= d then lo = mid else hi = mid - 1 end
  end
  return lo
end

-- The direction of segment i, or of the nearest non-empty one (a path of
-- one point: 0, 0).
local function direction(wk, i)
  local xs, ys, n = wk.xs, wk.ys, wk.n
  for j = i, n - 1 do
    local dx, dy = xs[j + 1] - xs[j], ys[j + 1] - ys[j]
    local l = sqrt(dx * dx + dy * dy)
    if l > 0 then return dx / l, dy / l end
  end
  for j = i - 1, 1, -1 do
    local dx, dy = xs[j + 1] - xs[j], ys[j + 1] - ys[j]
    local l = sqrt(dx * dx + dy * dy)
    if l > 0 then return dx / l, dy / l end
  end
  return 0, 0
end

-- The point at distance d along the walk (clamped) and the direction there.
local function point_at(wk, d)
  local n = wk.n
  if n == 1 then return wk.xs[1], wk.ys[1], 0, 0 end
  if d <= 0 then d = 0 elseif d >= wk.length then d = wk.length end
  local i = segment_at(wk, d)
  local xs, ys, cum = wk.xs, wk.ys, wk.cum
  local seg = cum[i + 1] - cum[i]
  local t = seg > 0 and (d - cum[i]) / seg or 0
  if t > 1 then t = 1 end
  local dx, dy = direction(wk, i)
  return xs[i] + t * (xs[i + 1] - xs[i]), ys[i] + t * (ys[i + 1] - ys[i]), dx, dy
end
M.point_at_walk = point_at

-- The distance along the walk of its point closest to (px, py) (the first
-- such point), and that point.
local function project(wk, px, py)
  local xs, ys, cum = wk.xs, wk.ys, wk.cum
  local bestd2, bestd, bx, by = huge, 0, xs[1], ys[1]
  if wk.n == 1 then return 0, xs[1], ys[1] end
  for i = 1, wk.n - 1 do
    local ax, ay = xs[i], ys[i]
    local vx, vy = xs[i + 1] - ax, ys[i + 1] - ay
    local l2 = vx * vx + vy * vy
    local t = 0
    if l2 > 0 then
      t = ((px - ax) * vx + (py - ay) * vy) / l2
      if t < 0 then t = 0 elseif t > 1 then t = 1 end
    end
    local qx, qy = ax + t * vx, ay + t * vy
    local d2 = (px - qx) * (px - qx) + (py - qy) * (py - qy)
    if d2 < bestd2 then
      bestd2, bx, by = d2, qx, qy
      bestd = cum[i] + t * (cum[i + 1] - cum[i])
    end
  end
  return bestd, bx, by
end
M.project_walk = project

--- path:point_at(d) -> x, y, dx, dy
function M.point_at(path, d)
  local wk = walk(path, "point_at")
  check_number(d, 1, "point_at", "distance")
  return point_at(wk, d)
end

--- path:project(wx, wy) -> d, x, y
function M.project(path, wx, wy)
  local wk = walk(path, "project")
  check_number(wx, 1, "project", "x")
  check_number(wy, 2, "project", "y")
  return project(wk, wx, wy)
end

--- path:world_length() -> length in world units
function M.world_length(path)
  return walk(path, "world_length").length
end

-- ---------------------------------------------------------------------------
-- the follower
-- ---------------------------------------------------------------------------

local Follower = {}
Follower.__index = Follower
Follower.__name = "astar.Follower"

local function check_opts(opts, fname, n)
  if opts == nil then return 1, 0 end
  if type(opts) ~= "table" then bad(n, fname, ("table expected, got %s"):format(describe(opts)), 4) end
  for k in pairs(opts) do
    if k ~= "speed" and k ~= "radius" then
      bad(n, fname, ("unknown option %s"):format(describe(k)), 4)
    end
  end
  local speed, radius = opts.speed, opts.radius
  if speed == nil then speed = 1 end
  if radius == nil then radius = 0 end
  if type(speed) ~= "number" or speed ~= speed or speed <= 0 or speed == huge then
    bad(n, fname, ("speed must be a finite number > 0, got %s"):format(describe(speed)), 4)
  end
  if type(radius) ~= "number" or radius ~= radius or radius < 0 or radius == huge then
    bad(n, fname, ("radius must be a finite number >= 0, got %s"):format(describe(radius)), 4)
  end
  return speed, radius
end

-- Points the follower at walk wk from its position (x, y): it joins the
-- path at its point closest to (x, y), straight, then walks on.
local function attach(f, wk)
  f.walk = wk
  local d, jx, jy = project(wk, f.x, f.y)
  f.d = d
  f.seg = wk.n > 1 and segment_at(wk, d) or 1
  f.jx, f.jy = jx, jy -- the join point (where the unit already is: no leg)
  f.dx, f.dy = direction(wk, f.seg)
  f.arrived = false
end

local function remaining(f)
  local jx, jy = f.jx - f.x, f.jy - f.y
  return sqrt(jx * jx + jy * jy) + (f.walk.length - f.d)
end

--- astar.follower(path [, { speed =, radius = }]) -> follower
function M.follower(path, opts)
  local wk = walk(path, "follower", 1)
  local speed, radius = check_opts(opts, "follower", 2)
  local f = setmetatable({ speed = speed, radius = radius }, Follower)
  f.x, f.y = wk.xs[1], wk.ys[1]
  attach(f, wk)
  f.path = path
  f.arrived = remaining(f) <= radius
  return f
end

--- f:update(dt) -> x, y, arrived: moves speed * dt along the path (first to
-- the join point after a retarget); arrival once what is left is within radius
-- (the unit then stops there).
function Follower:update(dt)
  if type(dt) ~= "number" or dt ~= dt or dt < 0 or dt == huge then
    bad(1, "update", ("dt must be a finite number >= 0, got %s"):format(describe(dt)), 3)
  end
  if self.arrived then return self.x, self.y, true end
  local step = self.speed * dt
  local left = remaining(self)
  if left - step <= self.radius then
    -- stop at distance radius before the end, never past it
    step = left - self.radius
    if step < 0 then step = 0 end
    self.arrived = true
  end
  -- the join leg
  local jx, jy = self.jx - self.x, self.jy - self.y
  local jl = sqrt(jx * jx + jy * jy)
  if jl > 0 then
    if step < jl then
      self.x, self.y = self.x + jx / jl * step, self.y + jy / jl * step
      self.dx, self.dy = jx / jl, jy / jl
      return self.x, self.y, self.arrived
    end
    step = step - jl
    self.x, self.y = self.jx, self.jy
  end
  local wk = self.walk
  local d = self.d + step
  if d > wk.length then d = wk.length end
  local cum, i = wk.cum, self.seg
  while i < wk.n - 1 and cum[i + 1] < d do i = i + 1 end
  self.seg, self.d = i, d
  if wk.n == 1 then
    self.x, self.y = wk.xs[1], wk.ys[1]
  else
    local seg = cum[i + 1] - cum[i]
    local t = seg > 0 and (d - cum[i]) / seg or 0
    self.x = wk.xs[i] + t * (wk.xs[i + 1] - wk.xs[i])
    self.y = wk.ys[i] + t * (wk.ys[i + 1] - wk.ys[i])
    self.dx, self.dy = direction(wk, i)
  end
  self.jx, self.jy = self.x, self.y
  return self.x, self.y, self.arrived
end

--- f:retarget(path): the unit keeps its position and follows the new path,
-- joining it at its point closest to the unit (straight), then on to its end.
function Follower:retarget(path)
  local wk = walk(path, "retarget", 1)
  self.path = path
  attach(self, wk)
  self.arrived = remaining(self) <= self.radius
  return self
end

--- f:position() -> x, y, dx, dy
function Follower:position()
  return self.x, self.y, self.dx, self.dy
end

--- f:remaining() -> world distance left to the path's end (join leg included)
function Follower:remaining()
  return remaining(self)
end

M.Follower = Follower

return M
