-- Line of sight between cell centres, and visible_from.  Hand cases, then an
-- independent exact oracle (integer arithmetic on doubled coordinates, no
-- cell walking) on thousands of random pairs, symmetry, and visible_from
-- against line_of_sight cell by cell.

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, ipairs, math, tostring = assert, ipairs, math, tostring
local astar = require("astar")

local rng = require("helpers").rng -- Park-Miller: the same worlds on every Lua
local worlds = require("worlds")

local function grid(text)
  return astar.grid_from_string(text, { A = true, B = true })
end

describe("line_of_sight by hand", function()
  it("sees along an open row, column and diagonal #pure", function()
    local g = astar.grid(5, 5)
    assert.is_true(g:line_of_sight(1, 1, 5, 1))
    assert.is_true(g:line_of_sight(3, 5, 3, 1))
    assert.is_true(g:line_of_sight(1, 1, 5, 5))
    assert.is_true(g:line_of_sight(5, 1, 1, 4))
  end)

  it("is stopped by a wall between the centres #pure", function()
    local g = grid(".....\n..#..\n.....")
    assert.is_false(g:line_of_sight(1, 2, 5, 2))
    assert.is_false(g:line_of_sight(1, 1, 5, 3)) -- through (3, 2)'s centre
    assert.is_true(g:line_of_sight(1, 1, 5, 1))
    assert.is_true(g:line_of_sight(1, 3, 5, 3))
    assert.is_false(g:line_of_sight(3, 1, 3, 3))
    assert.is_true(g:line_of_sight(2, 1, 2, 3))
  end)

  it("cannot squeeze between two diagonal blocked cells #pure", function()
    local g = grid(".#\n#.")
    assert.is_false(g:line_of_sight(1, 1, 2, 2))
    assert.is_false(g:line_of_sight(2, 2, 1, 1))
    g = grid("...#\n..#.\n.#..\n#...") -- an anti-diagonal wall, no gaps for the eye
    assert.is_false(g:line_of_sight(1, 1, 4, 4))
    assert.is_false(g:line_of_sight(2, 2, 3, 3))
    assert.is_false(g:line_of_sight(1, 2, 3, 4))
    -- except where a step may squeeze so (diagonal = "always"): find_path
    -- goes through, and so does the line
    g = astar.grid_from_string("...#\n..#.\n.#..\n#...", nil, { diagonal = "always" })
    assert.is_true(g:line_of_sight(1, 1, 4, 4))
    assert.is_true(g:line_of_sight(3, 1, 4, 2))
  end)

  it("may touch one blocked corner #pure", function()
    local g = grid(".#\n..")
    assert.is_true(g:line_of_sight(1, 1, 2, 2))
    assert.is_true(g:line_of_sight(2, 2, 1, 1))
    g = grid("..\n#.")
    assert.is_true(g:line_of_sight(1, 1, 2, 2))
    g = grid("...\n#..\n...") -- (1,1) -> (3,3) touches the corner of (1,2)
    assert.is_true(g:line_of_sight(1, 1, 3, 3))
    g:set_blocked(2, 1, true) -- (2,1) and (1,2) now meet at that corner
    assert.is_false(g:line_of_sight(1, 1, 3, 3))
  end)

  it("follows a knight's move through the cells it crosses #pure", function()
    -- (1,1) -> (2,3) crosses (1,2) and (2,2), not (2,1) nor (1,3)
    local g = grid("..\n..\n..")
    assert.is_true(g:line_of_sight(1, 1, 2, 3))
    g:set_blocked(2, 1, true)
    g:set_blocked(1, 3, true)
    assert.is_true(g:line_of_sight(1, 1, 2, 3))
    g:set_blocked(1, 2, true)
    assert.is_false(g:line_of_sight(1, 1, 2, 3))
    g:set_blocked(1, 2, false)
    g:set_blocked(2, 2, true)
    assert.is_false(g:line_of_sight(1, 1, 2, 3))
  end)

  it("needs both end cells open #pure", function()
    local g = grid("#..\n...\n..#")
    assert.is_false(g:line_of_sight(1, 1, 3, 1))
    assert.is_false(g:line_of_sight(3, 1, 1, 1))
    assert.is_false(g:line_of_sight(1, 2, 3, 3))
    assert.is_false(g:line_of_sight(3, 3, 1, 2))
    assert.is_false(g:line_of_sight(1, 1, 1, 1))
  end)

  it("from a cell to itself is true when the cell is open #pure", function()
    local g = grid(".#")
    assert.is_true(g:line_of_sight(1, 1, 1, 1))
    assert.is_false(g:line_of_sight(2, 1, 2, 1))
    assert.is_false(g:line_of_sight(1, 1, 2, 1))
  end)

  it("ignores cell costs and tags #pure", function()
    local g = astar.grid_from_string("a3b", { a = "mud", ["3"] = 3, b = { cost = 0, tag = "lava" } })
    assert.is_true(g:line_of_sight(1, 1, 3, 1))
  end)
end)

-- ---------------------------------------------------------------------------
-- The oracle.  Doubled coordinates: cell (x, y) (1-based) is the open square
-- (2x-2, 2x) x (2y-2, 2y), its centre (2x-1, 2y-1).  The segment between two
-- centres enters a cell when the set of t in [0, 1] for which both
-- coordinates are strictly inside is non-empty (fractions compared by cross
-- multiplication).  At a lattice point (even, even) strictly on the segment
-- it passes between two cells it does not enter: both blocked stops it.
-- ---------------------------------------------------------------------------

-- The open t-interval in which a + t*d lies strictly inside (lo, lo + 2), as
-- two fractions {num, den} (den > 0); nil when empty; true when always.
local function span(a, d, lo)
  if d == 0 then
    if lo < a and a < lo + 2 then return true end
    return nil
  elseif d > 0 then
    return { lo - a, d }, { lo + 2 - a, d }
  else
    return { a - lo - 2, -d }, { a - lo, -d }
  end
end

local function less(p, q) return p[1] * q[2] < q[1] * p[2] end

local function enters(ax, ay, dx, dy, cx, cy)
  local lo, hi = { 0, 1 }, { 1, 1 }
  for _, s in ipairs({ { ax, dx, 2 * cx - 2 }, { ay, dy, 2 * cy - 2 } }) do
    local l, h = span(s[1], s[2], s[3])
    if l == nil then return false end
    if l ~= true then
      if less(lo, l) then lo = l end
      if less(h, hi) then hi = h end
    end
  end
  return less(lo, hi)
end

-- blocked(x, y) -> boolean; returns the answer and whether a corner decided
-- or could have decided it (for coverage counts).  squeeze: the grid's
-- diagonal rule is "always", where a step squeezes between two diagonal
-- walls and so does a line (both blocked does not stop it).
local function oracle(blocked, x1, y1, x2, y2, squeeze)
  if blocked(x1, y1) or blocked(x2, y2) then return false end
  local ax, ay = 2 * x1 - 1, 2 * y1 - 1
  local dx, dy = 2 * (x2 - x1), 2 * (y2 - y1)
  local corner = false
  for cy = math.min(y1, y2), math.max(y1, y2) do
    for cx = math.min(x1, x2), math.max(x1, x2) do
      if blocked(cx, cy) and enters(ax, ay, dx, dy, cx, cy) then return false end
    end
  end
  local bx, by = ax + dx, ay + dy
  for Y = math.min(ay, by) + 1, math.max(ay, by) - 1 do
    if Y % 2 == 0 then
      for X = math.min(ax, bx) + 1, math.max(ax, bx) - 1 do
        if X % 2 == 0 and (X - ax) * dy == (Y - ay) * dx then
          local s1, s2
          if (dx > 0) == (dy > 0) then
            s1, s2 = { math.floor(X / 2) + 1, math.floor(Y / 2) }, { math.floor(X / 2), math.floor(Y / 2) + 1 }
          else
            s1, s2 = { math.floor(X / 2), math.floor(Y / 2) }, { math.floor(X / 2) + 1, math.floor(Y / 2) + 1 }
          end
          local b1, b2 = blocked(s1[1], s1[2]), blocked(s2[1], s2[2])
          if b1 or b2 then corner = true end
          if b1 and b2 and not squeeze then return false, true end
        end
      end
    end
  end
  return true, corner
end

local function random_grid(seed)
  local world = worlds.random_grid(seed, { width = { 1, 13 }, height = { 1, 13 }, rule = "drawn", density = 0.45 })
  local w, b = world.w, world.blocked
  local function blocked(x, y) return b[(y - 1) * w + x] end
  return world.g, world.w, world.h, blocked, world.r, world.rule
end

-- A random pair, often on a diagonal or another line through grid corners.
local function random_pair(r, w, h)
  local x1, y1 = r(1, w), r(1, h)
  if r() < 0.4 then
    local dirs = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 }, { 3, 1 }, { 1, 3 }, { -3, 1 }, { 1, -3 }, { 3, 3 }, { 5, 3 } }
    local d = dirs[r(1, #dirs)]
    local k = r(1, 6)
    local x2, y2 = x1 + k * d[1], y1 + k * d[2]
    if x2 >= 1 and x2 <= w and y2 >= 1 and y2 <= h then return x1, y1, x2, y2 end
  end
  return x1, y1, r(1, w), r(1, h)
end

describe("line_of_sight against an exact oracle", function()
  it("the oracle agrees with the hand cases #pure", function()
    local function from(text)
      local rows = {}
      for line in text:gmatch("[^\n]+") do rows[#rows + 1] = line end
      return function(x, y) return rows[y]:sub(x, x) == "#" end
    end
    assert.is_false(oracle(from(".#\n#."), 1, 1, 2, 2))
    assert.same({ true, true }, { oracle(from(".#\n.."), 1, 1, 2, 2) })
    assert.is_false(oracle(from(".....\n..#..\n....."), 1, 1, 5, 3))
    assert.is_true(oracle(from("##\n..\n.."), 1, 2, 2, 3))
    assert.is_false(oracle(from("..\n#.\n.."), 1, 1, 2, 3))
    assert.is_false(oracle(from("..\n.#\n.."), 1, 1, 2, 3))
    assert.is_true(oracle(from(".#\n..\n#."), 1, 1, 2, 3))
  end)

  it("agrees on thousands of random pairs, and is symmetric #pure", function()
    local pairs_, seen, unseen, corners = 0, 0, 0, 0
    for seed = 1, 60 do
      local g, w, h, blocked, r, rule = random_grid(seed)
      for _ = 1, 80 do
        local x1, y1, x2, y2 = random_pair(r, w, h)
        local want, corner = oracle(blocked, x1, y1, x2, y2, rule == "always")
        local got = g:line_of_sight(x1, y1, x2, y2)
        local label = ("seed %d: (%d,%d) -> (%d,%d)"):format(seed, x1, y1, x2, y2)
        assert.equal(want, got, label)
        assert.equal(got, g:line_of_sight(x2, y2, x1, y1), label .. " (reversed)")
        pairs_ = pairs_ + 1
        if want then seen = seen + 1 else unseen = unseen + 1 end
        if corner then corners = corners + 1 end
      end
    end
    assert.equal(4800, pairs_)
    assert.is_true(seen > 1000 and unseen > 1000, ("seen %d, unseen %d"):format(seen, unseen))
    assert.is_true(corners > 150, "too few pairs passing a blocked corner: " .. corners)
  end)

  it("is symmetric for every pair of cells of random grids #pure", function()
    for seed = 101, 108 do
      local g, w, h = random_grid(seed)
      for y1 = 1, h do
        for x1 = 1, w do
          for y2 = y1, h do
            for x2 = 1, w do
              assert.equal(g:line_of_sight(x1, y1, x2, y2), g:line_of_sight(x2, y2, x1, y1))
            end
          end
        end
      end
    end
  end)

  it("agrees on long lines across a big sparse grid #pure", function()
    local r = rng(777)
    local w, h = 120, 90
    local g = astar.grid(w, h)
    local b = {}
    for _ = 1, 150 do
      local x, y = r(1, w), r(1, h)
      b[y * 1000 + x] = true
      g:set_blocked(x, y, true)
    end
    local function blocked(x, y) return b[y * 1000 + x] == true end
    local seen, unseen = 0, 0
    for _ = 1, 300 do
      local x1, y1, x2, y2 = r(1, w), r(1, h), r(1, w), r(1, h)
      local want = oracle(blocked, x1, y1, x2, y2)
      assert.equal(want, g:line_of_sight(x1, y1, x2, y2), ("(%d,%d) -> (%d,%d)"):format(x1, y1, x2, y2))
      if want then seen = seen + 1 else unseen = unseen + 1 end
    end
    assert.is_true(seen > 60 and unseen > 60, ("seen %d, unseen %d"):format(seen, unseen))
  end)
end)

describe("visible_from", function()
  it("marks what line_of_sight sees, within the radius #pure", function()
    local g = grid("......\n..#...\n......\n....#.")
    local f = g:visible_from(1, 1)
    assert.same({ 6, 4 }, { f:size() })
    assert.equal("astar.Field (6x4)", tostring(f))
    assert.equal(1, f:get(1, 1))
    assert.equal(1, f:get(6, 1))
    assert.equal(0, f:get(3, 2)) -- blocked
    assert.equal(0, f:get(5, 3)) -- behind (3, 2)
    f = g:visible_from(1, 1, 2)
    assert.equal(1, f:get(3, 1)) -- distance 2
    assert.equal(0, f:get(3, 2)) -- blocked, sqrt(5)
    assert.equal(0, f:get(4, 1)) -- distance 3
    assert.equal(1, f:get(2, 2)) -- sqrt(2)
    assert.equal(0, f:get(3, 3)) -- sqrt(8)
    f = g:visible_from(1, 1, 0)
    local ones = 0
    for y = 1, 4 do for x = 1, 6 do ones = ones + f:get(x, y) end end
    assert.equal(1, ones)
  end)

  it("is all zero from a blocked cell #pure", function()
    local g = grid("#..\n...")
    for _, radius in ipairs({ false, 0, 5 }) do
      local f = radius and g:visible_from(1, 1, radius) or g:visible_from(1, 1)
      for y = 1, 2 do for x = 1, 3 do assert.equal(0, f:get(x, y)) end end
    end
  end)

  it("equals line_of_sight and the distance rule on every cell of random grids #pure", function()
    local count = 0
    for seed = 201, 230 do
      local g, w, h, _, r = random_grid(seed)
      for _ = 1, 3 do
        local x, y = r(1, w), r(1, h)
        for _, radius in ipairs({ false, 0, 1, 1.5, 2, 3.7, 5, 1e9 }) do
          local f = radius and g:visible_from(x, y, radius) or g:visible_from(x, y)
          for cy = 1, h do
            for cx = 1, w do
              local d2 = (cx - x) ^ 2 + (cy - y) ^ 2
              local want = g:line_of_sight(x, y, cx, cy) and (not radius or d2 <= radius * radius)
              assert.equal(want and 1 or 0, f:get(cx, cy),
                ("seed %d from (%d,%d) r=%s at (%d,%d)"):format(seed, x, y, tostring(radius), cx, cy))
              count = count + 1
            end
          end
        end
      end
    end
    assert.is_true(count > 10000)
  end)

  it("returns a new field each time, independent of the grid's later changes #pure", function()
    local g = astar.grid(3, 1)
    local f = g:visible_from(1, 1)
    g:set_blocked(2, 1, true)
    local f2 = g:visible_from(1, 1)
    assert.same({ 1, 1, 1 }, { f:get(1, 1), f:get(2, 1), f:get(3, 1) })
    assert.same({ 1, 0, 0 }, { f2:get(1, 1), f2:get(2, 1), f2:get(3, 1) })
    f2:set(3, 1, 7)
    assert.equal(1, f:get(3, 1))
  end)
end)
