--- astar.pure.search (internal): the pure-Lua backend's searches on square
-- grids: A* (every option), jump point search (uniform grids, rules
-- "never" and "no_corner_cutting") and multi-source Dijkstra (distances).
--
-- Written for speed on every Lua from 5.1 to 5.5 and LuaJIT: node state in
-- flat arrays indexed by the padded cell index (stamp, g, parent, heap
-- position, h, step cost, direction), valid when its stamp is the search's
-- generation, so a search never clears what it did not touch; the open
-- list is a binary heap of cell indices with parallel key arrays (f, then
-- h for high_g or an insertion number for fifo); no table per node.  A
-- search is a set of closures over its state (upvalues are the fastest
-- variables Lua has), so a time-sliced query resumes where it stopped.
-- The default query on a "no_corner_cutting" grid (jump point search,
-- octile, no option that changes the search) takes a fast path instead:
-- one loop with no call per scan or offer, its node state in one array of
-- four entries a cell, and a stack for cells of least f (run_fast below;
-- under LuaJIT with its compiler on, the grid's own state and jump table
-- are FFI arrays: astar.pure.util).
-- luacheck: ignore 581 (not (a < b) on purpose: NaN compares false both ways)
local U = require("astar.pure.util")
local G = require("astar.pure.grid")
local describe = U.describe
local floor, sqrt, huge = math.floor, math.sqrt, math.huge

local M = {}

local DIAGONAL = G.DIAGONAL
local OCT_K = DIAGONAL - 1
local LEN = { 1.0, 1.0, 1.0, 1.0, DIAGONAL, DIAGONAL, DIAGONAL, DIAGONAL }
local OPP = { 2, 1, 4, 3, 8, 7, 6, 5 }
M.LEN = LEN
-- the fast path's scans after an arrival in direction d0 (0: the start):
-- straight directions, then diagonal ones (a diagonal run checks its first
-- step's two sides itself, so no test of the sides is needed here)
local FAST_STRAIGHT = { [0] = { 1, 2, 3, 4 }, { 1, 3, 4 }, { 2, 3, 4 }, { 3, 1, 2 }, { 4, 1, 2 },
  { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 } }
-- HALF[j] = floor(j / 2): the heap's parent index as an integer on every
-- Lua (5.4 makes (j - j % 2) / 2 a float, and a float key costs a
-- conversion at every access); grown to the largest heap seen
local HALF = { 0 }
function M.grow_half(n)
  for j = #HALF + 1, 2 * n do HALF[j] = floor(j / 2) end
  return #HALF
end
M.grow_half(1024)
-- a diagonal direction's horizontal and vertical parts
local FAST_H = { [5] = 1, [6] = 1, [7] = 2, [8] = 2 }
local FAST_V = { [5] = 3, [6] = 4, [7] = 3, [8] = 4 }
local FAST_DIAG = { [0] = { 5, 6, 7, 8 }, { 5, 6 }, { 7, 8 }, { 5, 7 }, { 6, 8 }, { 5 }, { 6 }, { 7 }, { 8 } }
-- both, straight directions first
local FAST_ALL = {}
for d0 = 0, 8 do
  local t = {}
  for _, d in ipairs(FAST_STRAIGHT[d0]) do t[#t + 1] = d end
  for _, d in ipairs(FAST_DIAG[d0]) do t[#t + 1] = d end
  FAST_ALL[d0] = t
end

--- a state: the per-node arrays, reusable across searches of one grid.
-- prefill: fill them at their first use (a grid's own state: the arrays
-- then never grow cell by cell).  The fast path's node state is one array,
-- node, four entries a cell (stamp, g, parent * 16 + direction, heap
-- position: one cache line where seven arrays took seven); the other
-- searches use the seven arrays.  Each is filled when a search first
-- needs it.
function M.new_state(n, prefill)
  return { gen = 0, stamp = {}, g = {}, par = {}, pos = {}, h = {}, cc = {}, dir = {},
    hn = {}, hf = {}, hk = {}, node = {}, n = n, fill = prefill, fill_node = prefill }
end

local function fill_arrays(st)
  st.fill = false
  local stamp, gv, par, pos, h, cc, dir = st.stamp, st.g, st.par, st.pos, st.h, st.cc, st.dir
  for p = 1, st.n do
    stamp[p] = 0; gv[p] = 0; par[p] = 0; pos[p] = 0; h[p] = 0; cc[p] = 0; dir[p] = 0
  end
end

local function fill_node(st)
  st.fill_node = false
  if U.ffi then
    -- FFI arrays (LuaJIT): allocated whole, zero-filled; only for a grid's
    -- own state, which every find_path reuses (a query's or a nested
    -- search's state keeps tables that grow with the cells it touches)
    local n = st.n
    st.node = U.num_array(4 * n)
    st.fhn, st.fhf, st.fhk = U.int_array(n), U.num_array(n), U.num_array(n)
    return
  end
  local node = st.node
  for i = 1, 4 * st.n do node[i] = 0 end
end


--[[
new(g, o, st, start, goal, sources)
  g: the grid; o: parsed options (astar.pure.opts); st: a state;
  start, goal: padded indices (a path search), or sources: a list of padded
  indices (a distance search: o.reverse for "to_sources").
Returns the search object s:
  s.run(n) -> "searching" or a final status (n: most expansions, nil: all)
  s.status, s.stats(), s.path_to(p), s.best, s.version ...
]]
function M.new(g, o, st, start, goal, sources, nogoal)
  local open, cost, tag, pw, w = g.open, g.cost, g.tag, g.pw, g.w
  local rule = g.rule
  local off, ddx, ddy = G.offsets(pw)
  local ndir = rule == 1 and 4 or 8
  local hoff, voff = {}, {}
  for d = 5, 8 do hoff[d], voff[d] = G.sides(pw, d) end

  local gen = st.gen + 1
  st.gen = gen
  local stamp, gv, par, pos, hv, cc, pdir = st.stamp, st.g, st.par, st.pos, st.h, st.cc, st.dir
  local hn, hf, hk = st.hn, st.hf, st.hk
  local hsize, seq = 0, 0

  local distances = sources ~= nil
  local reverse = distances and o.reverse
  local fifo = o.fifo and not distances
  local weight = distances and 1 or o.weight
  local stop = distances and 1 or o.stop
  local max_exp = not distances and o.max_exp or nil
  local max_cost = o.max_cost
  local track_best = not distances and o.partial
  local record_trace, record_visited = not distances and o.trace, not distances and o.visited
  local tagf = tag and o.tagf or nil
  local forbidtags = tagf and o.forbidtags
  local pen = o.penalty and o.penalty.v
  local pscale = o.pscale
  local forb = o.forbid and o.forbid.v
  local costfn = o.costfn
  local shuts = forb ~= nil or forbidtags
  local hkind = distances and 1 or o.h
  local hfn = o.hfn

  local s = { version = g.ver, trace = record_trace and {} or nil, visited = record_visited and {} or nil }
  local expanded, generated, reopened = 0, 0, 0
  local reached, pruned = false, false
  local best, best_h = 0, huge
  local status = "searching"

  -- coordinates of padded index p
  local function xy(p)
    local y = floor((p - 1) / pw)
    return p - 1 - y * pw, y
  end
  local function ext(p)
    local x, y = xy(p)
    return (y - 1) * w + x
  end
  s.xy, s.ext = xy, ext

  -- the goal's coordinates and the bisector's line
  local gx, gy, sx, sy, ux, uy = 0, 0, 0, 0, 0, 0
  if not distances then
    gx, gy = xy(goal)
    sx, sy = xy(start)
    local len = sqrt((gx - sx) ^ 2 + (gy - sy) ^ 2)
    if len > 0 then ux, uy = (gx - sx) / len, (gy - sy) / len end
    if nogoal then goal = -2 end -- an impassable goal (partial): searched toward, never reached
  end

  local hcalc
  if hkind == 4 then -- octile, the default
    hcalc = function(x, y)
      local ax, ay = x - gx, y - gy
      if ax < 0 then ax = -ax end
      if ay < 0 then ay = -ay end
      if ax < ay then return OCT_K * ax + ay end
      return OCT_K * ay + ax
    end
  elseif hkind == 1 then
    hcalc = function() return 0 end
  elseif hkind == 3 then
    hcalc = function(x, y)
      local ax, ay = x - gx, y - gy
      if ax < 0 then ax = -ax end
      if ay < 0 then ay = -ay end
      return ax + ay
    end
  elseif hkind == 2 then
    hcalc = function(x, y) return sqrt((x - gx) ^ 2 + (y - gy) ^ 2) end
  elseif hkind == 5 then
    hcalc = function(x, y)
      local ax, ay = x - gx, y - gy
      if ax < 0 then ax = -ax end
      if ay < 0 then ay = -ay end
      return ax > ay and ax or ay
    end
  elseif hkind == 6 or hkind == 7 then
    hcalc = function(x, y)
      local vx, vy = x - sx, y - sy
      local t = vx * ux + vy * uy
      local px, py = vx - t * ux, vy - t * uy
      if ux == 0 and uy == 0 then return sqrt((x - gx) ^ 2 + (y - gy) ^ 2) end
      local h = sqrt(px * px + py * py)
      if hkind == 7 then
        local fx, fy = sx + t * ux - gx, sy + t * uy - gy
        h = h + sqrt(fx * fx + fy * fy)
      end
      return h
    end
  else -- a Lua heuristic: called once per node (its value is kept in hv)
    hcalc = function(x, y)
      local v = hfn(x, y, gx, gy)
      if type(v) ~= "number" or not (v >= 0) or v == huge then
        error(("heuristic returned %s for cell (%d, %d) (expected a finite number >= 0)")
          :format(type(v) == "number" and describe(v) or describe(v), x, y), 0)
      end
      return v
    end
  end

  -- the by-g heap of stop = "optimal": open nodes by cost so far
  local bn, bg, bpos, bsize = {}, {}, {}, 0
  local function bup(i)
    local node, key = bn[i], bg[i]
    while i > 1 do
      local pi = (i - i % 2) / 2
      if not (key < bg[pi]) then break end
      bn[i] = bn[pi]
      bg[i] = bg[pi]
      bpos[bn[i]] = i
      i = pi
    end
    bn[i] = node
    bg[i] = key
    bpos[node] = i
  end
  local function bdown(i)
    local node, key = bn[i], bg[i]
    while true do
      local c = 2 * i
      if c > bsize then break end
      if c < bsize and bg[c + 1] < bg[c] then c = c + 1 end
      if not (bg[c] < key) then break end
      bn[i] = bn[c]
      bg[i] = bg[c]
      bpos[bn[i]] = i
      i = c
    end
    bn[i] = node
    bg[i] = key
    bpos[node] = i
  end
  local function bset(q, gq)
    local i = bpos[q]
    if i and i > 0 then
      bg[i] = gq
      bup(i)
    else
      bsize = bsize + 1
      bn[bsize] = q
      bg[bsize] = gq
      bup(bsize)
    end
  end
  local function bremove(q)
    local i = bpos[q]
    bpos[q] = 0
    local last = bn[bsize]
    bsize = bsize - 1
    if i <= bsize and last ~= q then
      bn[i] = last
      bg[i] = bg[bsize + 1]
      bpos[last] = i
      bup(i)
      bdown(bpos[last])
    end
  end
  local optimal = stop == 3
  local oct = hkind == 4

  -- offers q the cost so far ng from p (direction d, step cost c); (qx, qy): q's coordinates
  local function relax(q, p, d, ng, c, qx, qy)
    if ng == huge then
      error(("the cost of reaching cell (%d, %d) overflows (costs too large)"):format(qx, qy), 0)
    end
    local h, f, ps
    if stamp[q] ~= gen then
      if ng > max_cost then
        pruned = true
        return
      end
      if oct then
        local ax, ay = qx - gx, qy - gy
        if ax < 0 then ax = -ax end
        if ay < 0 then ay = -ay end
        if ax < ay then h = OCT_K * ax + ay else h = OCT_K * ay + ax end
      else
        h = hcalc(qx, qy)
      end
      stamp[q] = gen
      hv[q] = h
      ps = 0
      if track_best and h < best_h then
        best = q
        best_h = h
      end
      if q == goal then reached = true end
    else
      local old = gv[q]
      if not (ng < old) then return end
      ps = pos[q]
      if ps == 0 then
        if not (ng < old - 1e-12 * old) then return end
        reopened = reopened + 1
      end
      h = hv[q]
    end
    gv[q] = ng
    par[q] = p
    pdir[q] = d
    cc[q] = c
    if weight == 1 then f = ng + h elseif weight == 0 then f = ng else f = ng + weight * h end
    local k
    if fifo then
      seq = seq + 1
      k = seq
    else
      k = h
    end
    local i
    if ps > 0 then
      i = ps
    else
      generated = generated + 1
      hsize = hsize + 1
      i = hsize
    end
    -- sift up (a key only decreases, but for fifo's new number: then down)
    while i > 1 do
      local pi = (i - i % 2) / 2
      local pf = hf[pi]
      if f < pf or (f == pf and k < hk[pi]) then
        local pn = hn[pi]
        hn[i] = pn
        hf[i] = pf
        hk[i] = hk[pi]
        pos[pn] = i
        i = pi
      else
        break
      end
    end
    if fifo and ps > 0 and i == ps then
      while true do
        local c2 = 2 * i
        if c2 > hsize then break end
        local cf, ck = hf[c2], hk[c2]
        if c2 < hsize then
          local rf, rk = hf[c2 + 1], hk[c2 + 1]
          if rf < cf or (rf == cf and rk < ck) then
            c2 = c2 + 1
            cf = rf
            ck = rk
          end
        end
        if cf < f or (cf == f and ck < k) then
          local cn = hn[c2]
          hn[i] = cn
          hf[i] = cf
          hk[i] = ck
          pos[cn] = i
          i = c2
        else
          break
        end
      end
    end
    hn[i] = q
    hf[i] = f
    hk[i] = k
    pos[q] = i
    if optimal then bset(q, ng) end
  end

  -- the query's filter: q forbidden (a forbid field's cell, a tag factor false)
  local function shut(q)
    if forb and forb[q] ~= 0 then return true end
    if forbidtags then
      local t = tag[q]
      return t > 0 and tagf[t] == false
    end
    return false
  end
  local function passable(q)
    return open[q] and not (shuts and shut(q))
  end
  s.passable = passable

  local function bad_cost(qx, qy, v, why)
    error(("entering cell (%d, %d) would cost %s (%s)"):format(qx, qy, describe(v), why), 0)
  end

  -- ----------------------------------------------------------------------
  -- A*: every option; reverse (distances toward sources) relaxes each step
  -- into p backwards
  local plain = not cost and not tagf and not pen and not costfn and not shuts and not reverse
  local function expand_astar(p)
    local py = floor((p - 1) / pw)
    local px = p - 1 - py * pw
    local gp = gv[p]
    if plain then
      local back = par[p]
      for d = 1, ndir do
        local q = p + off[d]
        if open[q] and q ~= back then
          local ok = d <= 4 or rule == 4
          if not ok then
            local a, b = open[p + hoff[d]], open[p + voff[d]]
            if rule == 2 then ok = a and b elseif rule == 3 then ok = a or b end
          end
          if ok then
            local c = LEN[d]
            relax(q, p, d, gp + c, c, px + ddx[d], py + ddy[d])
          end
        end
      end
      return
    end
    local back = par[p]
    for d = 1, ndir do
      local q = p + off[d]
      -- (the step back to p's parent never improves it: skipped, as natively)
      if open[q] and q ~= back and not (shuts and shut(q)) then
        local ok = d <= 4 or rule == 4
        if not ok then
          local a, b = passable(p + hoff[d]), passable(p + voff[d])
          if rule == 2 then ok = a and b elseif rule == 3 then ok = a or b end
        end
        if ok then
          local qx, qy = px + ddx[d], py + ddy[d]
          -- the cell entered: q going forwards, p when read backwards
          local e, ex, ey = q, qx, qy
          if reverse then e, ex, ey = p, px, py end
          local c = LEN[d]
          if cost then
            c = c * cost[e]
            if c == huge then bad_cost(ex, ey, c, "cell costs must keep step costs finite") end
          end
          if tagf then
            local t = tag[e]
            if t > 0 then
              c = c * tagf[t]
              if c == huge then bad_cost(ex, ey, c, "tag factors must keep step costs finite") end
            end
          end
          if pen then
            c = c + pen[e] * pscale
            if not (c >= 0) or c == huge then
              bad_cost(ex, ey, c, "penalty * penalty_scale must keep step costs finite and >= 0")
            end
          end
          if costfn then
            local r
            if reverse then r = costfn(qx, qy, px, py, c) else r = costfn(px, py, qx, qy, c) end
            if r == false then
              c = nil
            elseif type(r) ~= "number" or not (r >= 0) or r == huge then
              local fx, fy, tx, ty = px, py, qx, qy
              if reverse then fx, fy, tx, ty = qx, qy, px, py end
              error(("cost callback returned %s for the step from (%d, %d) to (%d, %d) "
                .. "(expected a finite number >= 0 or false)"):format(describe(r), fx, fy, tx, ty), 0)
            else
              c = r
            end
          end
          if c then relax(q, p, reverse and OPP[d] or d, gp + c, c, qx, qy) end
        end
      end
    end
  end

  -- ----------------------------------------------------------------------
  -- jump point search (Harabor and Grastien's online JPS, for the rules
  -- "no_corner_cutting" and "never"): straight scans stop where a side cell
  -- opens past a wall (a forced neighbour) or at the goal; a diagonal run
  -- stops where a straight scan from it would stop.  Jumps never pass the
  -- goal, so the goal is always a jump point.

  -- "no_corner_cutting": the grid's jump tables (astar.pure.grid) say
  -- where each straight scan stops; the goal is looked for on the ray
  local J -- the grid's jump table: J[4 * p - 4 + d], d = 1..4
  -- the grid's open 2 x 2 blocks (B[t]: top left cell t), and where a
  -- diagonal step from q in direction d finds its block: q + boff[d]
  local B
  local boff = { [5] = 0, [6] = -pw, [7] = -1, [8] = -pw - 1 }
  -- returns the jump point and the number of steps to it, or nil
  -- the straight scan from p (at px, py, cost so far gp) in direction d:
  -- relaxes the goal when the scan reaches it, else the jump point it stops
  -- at (none at a wall)
  local function straight(p, d, px, py, gp)
    local k
    k = J[4 * p - 4 + d]
    if goal > 0 then
      local t = -1
      if d <= 2 then
        if py == gy then t = d == 1 and gx - px or px - gx end
      elseif px == gx then
        t = d == 3 and gy - py or py - gy
      end
      if t >= 1 and (t <= k or t <= -k) then
        relax(goal, p, d, gp + t, t + 0.0, gx, gy)
        return
      end
    end
    if k > 0 then relax(p + k * off[d], p, d, gp + k, k + 0.0, px + k * ddx[d], py + k * ddy[d]) end
  end
  -- the 4-connected variant: a vertical run also stops where a horizontal scan would
  local function scan4h(p, step)
    local q = p + step
    while open[q] do
      if q == goal then return q end
      if (open[q - pw] and not open[q - step - pw]) or (open[q + pw] and not open[q - step + pw]) then return q end
      q = q + step
    end
    return nil
  end
  local function scan4v(p, step)
    local q = p + step
    while open[q] do
      if q == goal then return q end
      if (open[q - 1] and not open[q - step - 1]) or (open[q + 1] and not open[q - step + 1]) then return q end
      if scan4h(q, 1) or scan4h(q, -1) then return q end
      q = q + step
    end
    return nil
  end
  -- the diagonal run from q in direction d to its next cell where a
  -- straight scan finds something (a jump point, the goal in its reach) or
  -- the goal, or nil where a cell or a corner blocks it (q alone carried
  -- from step to step: LuaJIT's register allocation gives up on more)
  -- (the goal's row: its first and last cells, rlo and rhi; the goal's
  -- column: q - goal a multiple of pw)
  local rlo = gy * pw + 2
  local rhi = rlo + w - 1
  local function run_to(q, step, ho, vo, dx, dy, dh, dv)
    while open[q + ho] and open[q + vo] and open[q + step] do
      q = q + step
      if q == goal then return q end
      local kh = J[4 * q - 4 + dh]
      if kh > 0 then return q end
      local kv = J[4 * q - 4 + dv]
      if kv > 0 then return q end
      if q >= rlo and q <= rhi then
        local t = (goal - q) * dx
        if t >= 1 and t <= -kh then return q end
      end
      local gq = goal - q
      if gq % pw == 0 then
        local t = gq / pw * dy
        if t >= 1 and t <= -kv then return q end
      end
    end
    return nil
  end

  -- a diagonal run from p (at px, py, cost so far gp), as the native module
  -- runs it (src/jps.c): the diagonal cells are no nodes; from each, the
  -- two straight scans' jump points (or the goal within their reach) are
  -- relaxed directly, parent p, a diagonal then a straight run away; the
  -- run goes on until a cell or a corner blocks it, or it meets the goal.
  -- what the run from p (at px, py, cost so far gp) in direction d finds at
  -- its cell q: relaxed; true at the goal (the run ends there)
  local function found(p, q, d, px, py, gp)
    local dx, dy = ddx[d], ddy[d]
    local n = (q - p) / off[d]
    local cq = n * DIAGONAL
    local gq = gp + cq
    local qx, qy = px + n * dx, py + n * dy
    if q == goal then
      relax(q, p, d, gq, cq, qx, qy)
      return true
    end
    local dh = dx == 1 and 1 or 2
    local kh = J[4 * q - 4 + dh]
    local t = -1
    if goal > 0 and qy == gy then t = (gx - qx) * dx end
    if t >= 1 and (t <= kh or t <= -kh) then
      relax(goal, p, dh, gq + t, cq + t, gx, gy)
    elseif kh > 0 then
      relax(q + kh * off[dh], p, dh, gq + kh, cq + kh, qx + kh * dx, qy)
    end
    local dv = dy == 1 and 3 or 4
    local kv = J[4 * q - 4 + dv]
    t = -1
    if goal > 0 and qx == gx then t = (gy - qy) * dy end
    if t >= 1 and (t <= kv or t <= -kv) then
      relax(goal, p, dv, gq + t, cq + t, gx, gy)
    elseif kv > 0 then
      relax(q + kv * off[dv], p, dv, gq + kv, cq + kv, qx, qy + kv * dy)
    end
    return false
  end

  local function diag(p, d, px, py, gp)
    local dx, dy = ddx[d], ddy[d]
    local dh = dx == 1 and 1 or 2
    local dv = dy == 1 and 3 or 4
    local step, ho, vo = off[d], hoff[d], voff[d]
    local q = run_to(p, step, ho, vo, dx, dy, dh, dv)
    while q and not found(p, q, d, px, py, gp) do
      q = run_to(q, step, ho, vo, dx, dy, dh, dv)
    end
  end

  -- a jump of the 4-connected scans, which return the jump point alone
  local function jump_to4(p, d, j, gp, px, py)
    if j then
      local n = floor((j - p) / off[d] + 0.5)
      local c = n * LEN[d]
      relax(j, p, d, gp + c, c, px + n * ddx[d], py + n * ddy[d])
    end
  end

  local function expand_jps8(p)
    local py = floor((p - 1) / pw)
    local px = p - 1 - py * pw
    local gp = gv[p]
    local d0 = par[p] ~= 0 and pdir[p] or 0
    -- the directions to scan: all from the start; else the natural and forced ones
    if d0 == 0 then
      for d = 1, 4 do straight(p, d, px, py, gp) end
      for d = 5, 8 do diag(p, d, px, py, gp) end
      return
    end
    if d0 >= 5 then
      -- diagonal (the goal, met on a diagonal run): its two straight parts and itself
      straight(p, ddx[d0] == 1 and 1 or 2, px, py, gp)
      straight(p, ddy[d0] == 1 and 3 or 4, px, py, gp)
      diag(p, d0, px, py, gp)
      return
    end
    -- straight: onwards, both sides, and the diagonals onwards past an open side
    local ahead = open[p + off[d0]]
    if ahead then straight(p, d0, px, py, gp) end
    local s1, s2 = 3, 4
    if d0 >= 3 then s1, s2 = 1, 2 end
    for ds = s1, s2 do
      if open[p + off[ds]] then
        straight(p, ds, px, py, gp)
        if ahead then
          local dd
          local dxo, dyo = ddx[d0] + ddx[ds], ddy[d0] + ddy[ds]
          if dxo == 1 then dd = dyo == 1 and 5 or 6 else dd = dyo == 1 and 7 or 8 end
          diag(p, dd, px, py, gp)
        end
      end
    end
  end

  local function expand_jps4(p)
    local py = floor((p - 1) / pw)
    local px = p - 1 - py * pw
    local gp = gv[p]
    local d0 = par[p] ~= 0 and pdir[p] or 0
    for d = 1, 4 do
      local horizontal = d <= 2
      local take = d0 == 0 or d == d0 or (d0 <= 2) ~= horizontal
      if take and open[p + off[d]] then
        local j
        if horizontal then j = scan4h(p, off[d]) else j = scan4v(p, off[d]) end
        jump_to4(p, d, j, gp, px, py)
      end
    end
  end

  -- which expansion serves the query
  local jps = false
  if not distances then
    local why = require("astar.pure.opts").jps_refusal(g, o)
    jps = why == nil and (o.algorithm == 3 or (o.algorithm == 1 and not track_best))
  end
  local expand = expand_astar
  if jps then
    expand = rule == 1 and expand_jps4 or expand_jps8
    if rule == 2 then J, B = G.jump_tables(g) end
  end
  s.jps = jps

  -- ----------------------------------------------------------------------
  -- the fast path: jump point search on "no_corner_cutting" with the
  -- default options (octile, weight 1, stop "expand", high_g, no trace,
  -- visited or partial), the search most queries are.  The same nodes,
  -- scans and arrival rule as expand_jps8 with straight, diag and relax,
  -- written as one loop over locals: no call per scan or per offer (a call
  -- costs more than the work of most offers, which find the cell already
  -- reached as cheaply).  The offers of an expansion are gathered in three
  -- small arrays (those that cannot improve their cell are dropped at
  -- once), then relaxed in one place.
  local fast = jps and rule == 2 and hkind == 4 and weight == 1 and not fifo and stop == 1
    and not record_trace and not record_visited and not track_best and goal > 0
  if fast then
    if st.fill_node then fill_node(st) end
    if st.fhn then hn, hf, hk = st.fhn, st.fhf, st.fhk end
  elseif st.fill then
    fill_arrays(st)
  end
  local node = st.node
  -- an expansion's offers: cell, cost so far, direction (the state's,
  -- reused: nothing inside the fast path calls back into Lua)
  local oq, og, od = st.oq, st.og, st.od
  if not oq then
    oq, og, od = {}, {}, {}
    st.oq, st.og, st.od = oq, og, od
  end
  -- the stack of open cells whose f is fcur, the least (popped before the
  -- heap: A* may expand any cell of least f; position -1 marks them)
  local stk, fast_ns, fast_f = st.stk, 0, -huge
  if not stk then
    stk = {}
    st.stk = stk
  end
  local function run_fast(maxsteps)
    if status ~= "searching" then return status end
    local N = node
    local hs, exp_n, gen_n, done = hsize, expanded, generated, 0
    local ns, fcur, half_n = fast_ns, fast_f, #HALF
    local result = "searching"
    -- one loop, one piece of work an iteration (LuaJIT: short inner loops
    -- over an expansion's directions and offers abort its traces and get
    -- blacklisted, running interpreted): phase 1 scans direction dl[di]
    -- of p, phase 2 relaxes offer oi, phase 0 pops the next cell
    local p, gp, px, py, pd16, n_off = 0, 0, 0, 0, 0, 0
    local dl, di, nd, oi = FAST_ALL[0], 1, 0, 1
    local phase = 0
    while true do
      if phase == 1 then
        if di > nd then
          phase = 2
          oi = 1
        else
          local d = dl[di]
          di = di + 1
          if d <= 4 then
            -- (k is 0 where the next cell is blocked)
            local k = J[4 * p - 4 + d]
            if k ~= 0 then
              local step = off[d]
              local t = -1
              if d <= 2 then
                if py == gy then t = (gx - px) * ddx[d] end
              elseif px == gx then
                t = (gy - py) * ddy[d]
              end
              local q, c = 0, 0
              if t >= 1 and (t <= k or t <= -k) then
                q, c = goal, t
              elseif k > 0 then
                q, c = p + k * step, k
              end
              if q ~= 0 then
                local ng = gp + c
                if N[4 * q - 3] ~= gen or ng < N[4 * q - 2] then
                  n_off = n_off + 1
                  oq[n_off] = q
                  og[n_off] = ng
                  od[n_off] = d
                end
              end
            end
          else
            local dx, dy = ddx[d], ddy[d]
            local dh, dv = FAST_H[d], FAST_V[d]
            local jh, jv = dh - 4, dv - 4
            local step, bo = off[d], boff[d]
            -- the run meets the goal's row after nrow steps, its column after ncol
            local nrow, ncol = (gy - py) * dy, (gx - px) * dx
            local q, n = p, 0
            while B[q + bo] do
              q = q + step
              n = n + 1
              local b4 = 4 * q
              local kh, kv = J[b4 + jh], J[b4 + jv]
              if kh > 0 or kv > 0 or n == nrow or n == ncol then
                local cq = n * DIAGONAL
                local gq = gp + cq
                if q == goal then
                  if N[4 * q - 3] ~= gen or gq < N[4 * q - 2] then
                    n_off = n_off + 1
                    oq[n_off] = q
                    og[n_off] = gq
                    od[n_off] = d
                  end
                  break
                end
                local t = ncol - n
                local r, c = 0, 0
                if n == nrow and t >= 1 and (t <= kh or t <= -kh) then
                  r, c = goal, t
                elseif kh > 0 then
                  r, c = q + kh * off[dh], kh
                end
                if r ~= 0 then
                  local ng = gq + c
                  if N[4 * r - 3] ~= gen or ng < N[4 * r - 2] then
                    n_off = n_off + 1
                    oq[n_off] = r
                    og[n_off] = ng
                    od[n_off] = dh
                  end
                end
                t = nrow - n
                r = 0
                if n == ncol and t >= 1 and (t <= kv or t <= -kv) then
                  r, c = goal, t
                elseif kv > 0 then
                  r, c = q + kv * off[dv], kv
                end
                if r ~= 0 then
                  local ng = gq + c
                  if N[4 * r - 3] ~= gen or ng < N[4 * r - 2] then
                    n_off = n_off + 1
                    oq[n_off] = r
                    og[n_off] = ng
                    od[n_off] = dv
                  end
                end
              end
            end
          end
        end
      elseif phase == 2 then
        if oi > n_off then
          phase = 0
        else
          local i = oi
          oi = oi + 1
          local q, ng = oq[i], og[i]
          local bq = 4 * q
          local slot, h = 0, 0
          if N[bq - 3] ~= gen then
            if ng > max_cost then
              pruned = true
            else
              local qx = (q - 1) % pw
              local ax, ay = qx - gx, (q - 1 - qx) / pw - gy
              if ax < 0 then ax = -ax end
              if ay < 0 then ay = -ay end
              if ax < ay then h = OCT_K * ax + ay else h = OCT_K * ay + ax end
              N[bq - 3] = gen
              N[bq - 2] = ng
              N[bq - 1] = pd16 + od[i]
              if q == goal then reached = true end
              gen_n = gen_n + 1
              if ng + h <= fcur then
                ns = ns + 1
                stk[ns] = q
                N[bq] = -1
              else
                hs = hs + 1
                slot = hs
              end
            end
          else
            local old = N[bq - 2]
            if ng < old then
              slot = N[bq]
              if slot ~= 0 or ng < old - 1e-12 * old then
                N[bq - 2] = ng
                N[bq - 1] = pd16 + od[i]
                if slot == 0 then
                  -- closed, reopened (a rounding at most): its estimate again
                  local qx = (q - 1) % pw
                  local ax, ay = qx - gx, (q - 1 - qx) / pw - gy
                  if ax < 0 then ax = -ax end
                  if ay < 0 then ay = -ay end
                  if ax < ay then h = OCT_K * ax + ay else h = OCT_K * ay + ax end
                  reopened = reopened + 1
                  gen_n = gen_n + 1
                  hs = hs + 1
                  slot = hs
                elseif slot > 0 then
                  h = hk[slot]
                end
              else
                slot = 0
              end
            end
          end
          if slot > 0 then
            -- sift up (HALF[j]: j's parent, an integer on every Lua)
            if hs > half_n then half_n = M.grow_half(hs) end
            local f = ng + h
            local j = slot
            while j > 1 do
              local pj = HALF[j]
              local pf = hf[pj]
              if f < pf or (f == pf and h < hk[pj]) then
                local pn = hn[pj]
                hn[j] = pn
                hf[j] = pf
                hk[j] = hk[pj]
                N[4 * pn] = j
                j = pj
              else
                break
              end
            end
            hn[j] = q
            hf[j] = f
            hk[j] = h
            N[bq] = j
          end
        end
      else
        if hs == 0 and ns == 0 then
          result = pruned and "max_cost" or "unreachable"
          break
        end
        if max_exp and exp_n >= max_exp then result = "max_expansions" break end
        if maxsteps and done >= maxsteps then break end
        -- pop: the stack first, else the heap's top
        if ns > 0 then
          p = stk[ns]
          ns = ns - 1
        else
          p = hn[1]
          fcur = hf[1]
          local last = hs
          hs = hs - 1
          if hs > 0 then
            local ln, lf, lk = hn[last], hf[last], hk[last]
            local i = 1
            while true do
              local c = 2 * i
              if c > hs then break end
              local cf, ck = hf[c], hk[c]
              if c < hs then
                local rf, rk = hf[c + 1], hk[c + 1]
                if rf < cf or (rf == cf and rk < ck) then
                  c = c + 1
                  cf = rf
                  ck = rk
                end
              end
              if cf < lf or (cf == lf and ck < lk) then
                local cn = hn[c]
                hn[i] = cn
                hf[i] = cf
                hk[i] = ck
                N[4 * cn] = i
                i = c
              else
                break
              end
            end
            hn[i] = ln
            hf[i] = lf
            hk[i] = lk
            N[4 * ln] = i
          end
        end
        local b = 4 * p
        N[b] = 0
        exp_n = exp_n + 1
        done = done + 1
        if p == goal then result = "found" break end
        gp = N[b - 2]
        local pd = N[b - 1]
        py = floor((p - 1) / pw)
        px = p - 1 - py * pw
        local d0 = 0
        if pd ~= 0 then d0 = pd % 16 end
        n_off = 0
        pd16 = 16 * p
        dl = FAST_ALL[d0]
        di, nd = 1, #dl
        phase = 1
      end
    end
    hsize, expanded, generated = hs, exp_n, gen_n
    fast_ns, fast_f = ns, fcur
    if result ~= "searching" then status = result end
    return result
  end

  -- ----------------------------------------------------------------------
  -- the loop

  local function record(p, f)
    if record_visited then s.visited[#s.visited + 1] = ext(p) end
    if record_trace then
      local x, y = xy(p)
      local pp = par[p]
      s.trace[#s.trace + 1] = { node = (y - 1) * w + x, parent = pp ~= 0 and ext(pp) or nil,
        g = gv[p], f = f, x = x, y = y }
    end
  end

  local function run(maxsteps)
    if status ~= "searching" then return status end
    local done = 0
    while true do
      if reached then
        if stop == 2 then status = "found" break end
        if optimal and (bsize == 0 or bg[1] >= gv[goal]) then status = "found" break end
      end
      if hsize == 0 then
        if distances then status = "found"
        elseif pruned then status = "max_cost"
        else status = "unreachable" end
        break
      end
      if max_exp and expanded >= max_exp then status = "max_expansions" break end
      if maxsteps and done >= maxsteps then return "searching" end
      -- pop the top
      local p, f = hn[1], hf[1]
      local last = hsize
      hsize = hsize - 1
      if hsize > 0 then
        local ln, lf, lk = hn[last], hf[last], hk[last]
        local i = 1
        while true do
          local c = 2 * i
          if c > hsize then break end
          local cf, ck = hf[c], hk[c]
          if c < hsize then
            local rf, rk = hf[c + 1], hk[c + 1]
            if rf < cf or (rf == cf and rk < ck) then
              c = c + 1
              cf = rf
              ck = rk
            end
          end
          if cf < lf or (cf == lf and ck < lk) then
            local cn = hn[c]
            hn[i] = cn
            hf[i] = cf
            hk[i] = ck
            pos[cn] = i
            i = c
          else
            break
          end
        end
        hn[i] = ln
        hf[i] = lf
        hk[i] = lk
        pos[ln] = i
      end
      pos[p] = 0
      if optimal then bremove(p) end
      expanded = expanded + 1
      done = done + 1
      if record_trace or record_visited then record(p, f) end
      if p == goal and stop == 1 then status = "found" break end
      expand(p)
    end
    return status
  end
  s.run = fast and run_fast or run

  -- seeding: the start (or every passable source) at cost 0
  local function seed(p)
    if fast then
      -- the start: g 0, no parent, the heap's only cell
      local b = 4 * p
      node[b - 3] = gen
      node[b - 2] = 0.0
      node[b - 1] = 0
      node[b] = 1
      if p == goal then reached = true end
      local x, y = xy(p)
      hsize = 1
      generated = 1
      hn[1] = p
      hf[1] = hcalc(x, y)
      hk[1] = hf[1]
      return
    end
    local x, y = xy(p)
    relax(p, 0, 0, 0.0, 0.0, x, y)
  end
  s.seed = seed
  s.set_status = function(v) status = v end
  s.status = function() return status end
  s.stats = function()
    return { expanded = expanded, reopened = reopened, generated = generated,
      trace = s.trace, visited = s.visited }
  end
  s.best = function() return best ~= 0 and best or nil end
  s.cost_of = function(p)
    if fast then return node[4 * p - 3] == gen and node[4 * p - 2] or huge end
    return stamp[p] == gen and gv[p] or huge
  end
  s.reached_by = function(p)
    if fast then return node[4 * p - 3] == gen end
    return stamp[p] == gen
  end

  -- the cells from the start to p (jump points filled in), the step costs
  -- summed from the start, the length
  s.path_to = function(p)
    local rev, q = {}, p
    while q ~= 0 do
      rev[#rev + 1] = q
      if fast then q = floor(node[4 * q - 1] / 16) else q = par[q] end
    end
    local nodes, c, len = {}, 0.0, 0.0
    local n = 0
    for i = #rev, 1, -1 do
      local v = rev[i]
      if i < #rev then
        local from = rev[i + 1]
        if jps then
          -- a jump: diagonal steps first, then straight ones (src/jps.c)
          local fx, fy = xy(from)
          local vx, vy = xy(v)
          local ax, ay = vx - fx, vy - fy
          local kx, ky = ax > 0 and 1 or (ax < 0 and -1 or 0), ay > 0 and 1 or (ay < 0 and -1 or 0)
          if ax < 0 then ax = -ax end
          if ay < 0 then ay = -ay end
          local nd = ax < ay and ax or ay
          local cur = from
          for _ = 1, nd do
            cur = cur + ky * pw + kx
            if cur ~= v then
              n = n + 1
              nodes[n] = ext(cur)
            end
          end
          local ss = ax > ay and kx or ky * pw
          for _ = 1, (ax > ay and ax or ay) - nd - 1 do
            cur = cur + ss
            n = n + 1
            nodes[n] = ext(cur)
          end
          local step_len = nd * DIAGONAL + ((ax > ay and ax or ay) - nd)
          len = len + step_len
          -- the fast path keeps no step costs: a jump's is its length
          if fast then c = c + step_len else c = c + cc[v] end
        else
          len = len + LEN[pdir[v]]
          c = c + cc[v]
        end
      end
      n = n + 1
      nodes[n] = ext(v)
    end
    return nodes, c, len
  end
  s.gv, s.par, s.stamp, s.gen, s.pdir = gv, par, stamp, gen, pdir
  return s
end

return M
