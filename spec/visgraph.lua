-- spec/visgraph.lua -- the any-angle oracle of spec/anyangle_spec.lua and
-- spec/anyangle_exact_spec.lua: the exact shortest path through cell centres,
-- a Dijkstra over the visibility graph of every open cell, written in the
-- spec.  Its passage test is its own: with coordinates doubled (centres at
-- even numbers, cell borders at odd ones), a segment passes between two
-- centres when it meets no blocked cell's closed square -- a separating-axis
-- test in exact integer arithmetic (the strict rules' corner rule).
local sqrt, huge = math.sqrt, math.huge

-- Does the segment between the centres of a and b meet the closed square of
-- cell c?  Doubled coordinates: exact.
local function touches(ax, ay, bx, by, cx, cy)
  ax, ay, bx, by, cx, cy = 2 * ax, 2 * ay, 2 * bx, 2 * by, 2 * cx, 2 * cy
  -- the axes
  if math.max(ax, bx) < cx - 1 or math.min(ax, bx) > cx + 1 then return false end
  if math.max(ay, by) < cy - 1 or math.min(ay, by) > cy + 1 then return false end
  -- the segment's normal: the square's corners all strictly on one side
  local nx, ny = ay - by, bx - ax
  local pos, neg = false, false
  for _, d in ipairs({ { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } }) do
    local s = nx * (cx + d[1] - ax) + ny * (cy + d[2] - ay)
    if s >= 0 then pos = true end
    if s <= 0 then neg = true end
  end
  return pos and neg
end

-- The visibility-graph distances from (sx, sy) to every open cell of g (or,
-- with keep, to the open cells keep(x, y) accepts, through them only), keyed
-- y * 1000 + x; blocked: the list of g's blocked cells {x, y}.  Passage:
-- line_of_sight and, unless loose, no blocked cell's closed square touched
-- (the strict rules, "never" and "no_corner_cutting"; loose: the
-- line_of_sight rule of "one_obstacle" and "always").
local function oracle(g, blocked, sx, sy, keep, loose)
  local w, h = g:size()
  local open = {}
  for y = 1, h do
    for x = 1, w do
      if not g:is_blocked(x, y) and (not keep or keep(x, y) or (x == sx and y == sy)) then
        open[#open + 1] = { x, y }
      end
    end
  end
  local function passes(a, b)
    if loose then return true end
    local x0, x1 = math.min(a[1], b[1]), math.max(a[1], b[1])
    local y0, y1 = math.min(a[2], b[2]), math.max(a[2], b[2])
    for _, c in ipairs(blocked) do
      if c[1] >= x0 - 1 and c[1] <= x1 + 1 and c[2] >= y0 - 1 and c[2] <= y1 + 1
        and touches(a[1], a[2], b[1], b[2], c[1], c[2]) then
        return false
      end
    end
    return true
  end
  local dist, done = {}, {}
  for i, c in ipairs(open) do dist[i] = (c[1] == sx and c[2] == sy) and 0 or huge end
  for _ = 1, #open do
    local u, best = nil, huge
    for i = 1, #open do
      if not done[i] and dist[i] < best then u, best = i, dist[i] end
    end
    if not u then break end
    done[u] = true
    local a = open[u]
    for v = 1, #open do
      if not done[v] then
        local b = open[v]
        local d = best + sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2)
        -- the cheap test first: only a shorter route needs its passage checked
        if d < dist[v] and g:line_of_sight(a[1], a[2], b[1], b[2]) and passes(a, b) then
          dist[v] = d
        end
      end
    end
  end
  local out = {}
  for i, c in ipairs(open) do out[c[2] * 1000 + c[1]] = dist[i] end
  return out
end

return oracle
