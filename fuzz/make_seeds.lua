-- make_seeds.lua -- writes fuzz_core's seed inputs in its lattice format.
--
-- For every topology fuzz/fuzz_core.c builds -- a graph, a square grid under
-- each diagonal rule, a hex grid in each layout -- a few small inputs that
-- run each thing the topology can do (and ask for what it cannot): paths on
-- the plain fast path and the general one, jump point search, sized units,
-- distance fields forwards, backwards and sized, clearance, line of sight,
-- segments, smoothing and Theta* (square grids), field repair, step faults,
-- the forbidding tag, edits, precomputed tables, the jump table of JPS+
-- (built, repaired by edits, refused where it cannot serve), edits as one
-- change and the component questions (connected, would_disconnect), query
-- repair (a running search told of edits).  A short fuzzing run then
-- starts from every mode instead of finding them by chance.
--
-- Usage (from the repository root; any Lua 5.1 to 5.4):
--   lua fuzz/make_seeds.lua [DIR]        DIR: fuzz/corpus/core by default
-- The output is the same on every run: files named lattice-<topology>-<what>,
-- rewritten in place (the other seeds there, in fuzz_core's old format, are
-- left alone).  The byte layouts below follow the decoders in fuzz_core.c
-- (each function names the one it feeds): change them together.

local dir = arg and arg[1] or "fuzz/corpus/core"
local unpack = table.unpack or unpack

-- Whether bit b (a power of two) is set in flags (no bit operators: 5.1).
local function bit(flags, b) return math.floor(flags / b) % 2 == 1 end

-- fuzz_core.c's op codes (the enum before op_needs)
local OP = {
  edit = 0, path = 1, units = 2, field = 3, clear = 4, jps = 5, segment = 6,
  smooth = 7, theta = 8, repair = 9, fault = 10, forbid = 11, sight = 12, tables = 13,
  jumps = 14, bulk = 15, qrepair = 16,
}

-- A byte string from numbers (each 0..255) and strings, in order.
local function bytes(...)
  local out = {}
  for _, v in ipairs({ ... }) do
    if type(v) == "string" then
      out[#out + 1] = v
    else
      assert(v >= 0 and v <= 255 and v % 1 == 0, "byte out of range: " .. tostring(v))
      out[#out + 1] = string.char(v)
    end
  end
  return table.concat(out)
end

-- An op: its code, the length of its bytes, its bytes (lattice()).
local function op(name, body)
  assert(#body <= 255, name .. ": op longer than 255 bytes")
  return bytes(OP[name], #body, body)
end

-- A whole input: the topology byte (0x80 | kind), the build chunk with its
-- two-byte length, then the ops.
local function input(kind, build, ops)
  return bytes(0x80 + kind, math.floor(#build / 256), #build % 256, build, table.concat(ops))
end

-- Search slices: n bytes, each 1 + b % 8 expansions (run()).
local function slices(n) return string.rep(string.char(7), n) end

-- A deterministic generator seeded by name (Park and Miller's: every
-- product stays below 2^53, so each Lua computes the same numbers).
local function rng(name)
  local x = 12345
  for i = 1, #name do x = (x * 31 + name:byte(i)) % 2147483647 end
  if x == 0 then x = 1 end
  return function(n) -- 0 .. n - 1
    x = (x * 16807) % 2147483647
    return math.floor(x / 256) % n
  end
end

-- ---- grids (cells_build) --------------------------------------------------

-- A grid's build chunk.  o: w, h; walls (percent); costly: cell costs,
-- tags, penalties and forbid values; factors (4 values, false = forbid).
-- Cells 0 and w * h - 1 stay open and plain.  Cell bytes (cells_decode):
-- 1 open, 5 blocked, 7 + cost, 11 + tag, 77 + cost + tag.
local function grid_build(name, o)
  local r, w, h = rng(name), o.w, o.h
  local cells, pen, fb = {}, {}, {}
  for id = 0, w * h - 1 do
    local ends = id == 0 or id == w * h - 1
    if not ends and r(100) < (o.walls or 0) then
      cells[#cells + 1] = bytes(5)
    elseif not ends and o.costly and r(100) < 25 then
      local kind = r(3)
      if kind == 0 then cells[#cells + 1] = bytes(7, r(5)) -- costs 0..4
      elseif kind == 1 then cells[#cells + 1] = bytes(11, 1 + r(3)) -- tags 1..3
      else cells[#cells + 1] = bytes(77, 2 + r(3), 1 + r(3)) end
    else
      cells[#cells + 1] = bytes(1)
    end
    if o.costly and not ends and r(100) < 15 then pen[#pen + 1] = bytes(0, 1 + r(5))
    else pen[#pen + 1] = bytes(1) end
    fb[#fb + 1] = bytes((o.costly and not ends and r(100) < 8) and 0 or 1)
  end
  local factors = {}
  for i = 1, 4 do
    local f = (o.factors or { 1, 1, 1, 1 })[i]
    factors[i] = f and bytes(1, f) or bytes(0)
  end
  local layers = 1 + (o.costly and 6 or 0)
  return bytes(w - 1, h - 1, layers, table.concat(cells), o.costly and table.concat(pen) or "",
               o.costly and table.concat(fb) or "", table.concat(factors))
end

-- op_path: a path query.  o: h (heuristic, -1 default), weight, stop, tie,
-- flags (1 tags, 2 penalty, 4 forbid, 8 max_cost, 16 track_best, 32 trace,
-- 64 max_expansions), scale, max_cost, max_exp, alg, size (units), cb.
local function path(s, g, o, sized)
  o = o or {}
  local flags = o.flags or 0
  local b = { s, g, (o.h or -1) + 1, o.weight or 1, o.stop or 0, o.tie or 0, flags }
  if bit(flags, 2) then b[#b + 1] = o.scale or 1 end
  if bit(flags, 8) then b[#b + 1] = o.max_cost or 12 end
  if bit(flags, 64) then b[#b + 1] = (o.max_exp or 8) - 1 end
  b[#b + 1] = o.alg or 0
  if sized then b[#b + 1] = (o.size or 2) - 2 end
  if (o.h or -1) ~= 8 then b[#b + 1] = o.cb or 0 end
  b[#b + 1] = slices(8)
  return op(sized and "units" or "path", bytes(unpack(b)))
end

-- op_field: a distance field.  o: reverse, flags (1, 2, 4 as above, 8
-- max_cost, 16 sized), scale, max_cost, size.
local function field(srcs, o)
  o = o or {}
  local flags = o.flags or 0
  local b = { #srcs - 1 }
  for _, v in ipairs(srcs) do b[#b + 1] = v end
  b[#b + 1] = o.reverse and 1 or 0
  b[#b + 1] = flags
  if bit(flags, 2) then b[#b + 1] = o.scale or 1 end
  if bit(flags, 8) then b[#b + 1] = o.max_cost or 9 end
  if bit(flags, 16) then b[#b + 1] = (o.size or 2) - 2 end
  b[#b + 1] = slices(8)
  return op("field", bytes(unpack(b)))
end

-- op_clear: blocked cells toggled (x, y, blocked), the clearance checked
-- after each; sized lines of sight (a, b, k).
local function clear(edits, sights)
  local b = { #edits - 1 }
  for _, e in ipairs(edits) do
    b[#b + 1] = e[1]; b[#b + 1] = e[2]; b[#b + 1] = e[3]; b[#b + 1] = 1
  end
  b[#b + 1] = #sights - 1
  for _, v in ipairs(sights) do
    b[#b + 1] = v[1]; b[#b + 1] = v[2]; b[#b + 1] = v[3] - 1
  end
  return op("clear", bytes(unpack(b)))
end

-- op_edit: {kind, x, y, arg}: kind 0 blocked (arg 0/1), 1 cost (arg
-- 0..19), 2 tag (arg 0..3), 3 a bad tag, 7 while locked; then two
-- component questions (a, b).
local function edit(list, comps)
  local b = { #list - 1 }
  for _, e in ipairs(list) do
    b[#b + 1] = e[1]; b[#b + 1] = e[2]; b[#b + 1] = e[3]
    if e[1] % 8 ~= 7 then b[#b + 1] = e[4] or 0 end
    if e[1] % 8 == 3 and (e[4] or 0) % 2 == 0 then b[#b + 1] = 9 end
  end
  for _, v in ipairs(comps) do b[#b + 1] = v end
  return op("edit", bytes(unpack(b)))
end

-- op_sight: pairs (a, b) for line of sight, then neighbours and
-- visible_from at a with a radius byte (200+: unlimited).
local function sight(pairs, a, radius)
  local b = { #pairs - 1 }
  for _, p in ipairs(pairs) do b[#b + 1] = p[1]; b[#b + 1] = p[2] end
  b[#b + 1] = a
  b[#b + 1] = radius
  return op("sight", bytes(unpack(b)))
end

-- op_jps: start, goal, heuristic, stop, tie, explicit jps, track_best, and
-- what spoils it (0 size, 1 penalty, 2 forbid, 3 weight, 4 tags, 5 tags of
-- factor 1, 6 nothing).
local function jps(s, g, o)
  o = o or {}
  return op("jps", bytes(s, g, (o.h or -1) + 1, o.stop or 0, o.tie or 0, o.explicit and 1 or 0,
                         o.track and 0 or 1, o.spoil or 6, slices(8)))
end

-- op_segment: a query (mode 0 none, 1 plain, 2 modifiers, 3 sized with
-- modifiers; flags as path's 1, 2, 4), then segments {x0, y0, x1, y1}.
local function segment(mode, flags, segs)
  local b = { mode }
  if mode >= 2 then
    b[#b + 1] = flags
    if bit(flags, 2) then b[#b + 1] = 1 end
  end
  if mode == 3 then b[#b + 1] = 0 end
  b[#b + 1] = #segs - 1
  for _, v in ipairs(segs) do
    b[#b + 1] = v[1]; b[#b + 1] = v[2]; b[#b + 1] = v[3]; b[#b + 1] = v[4]; b[#b + 1] = 1
  end
  return op("segment", bytes(unpack(b)))
end

-- op_smooth: the path A* finds from s to g (flags as path's 1, 2, 4; size
-- 1..3), smoothed under the same query.
local function smooth(s, g, flags, size)
  local b = { s, g, flags }
  if bit(flags, 2) then b[#b + 1] = 1 end
  if (size or 1) > 1 then b[#b + 1] = 0; b[#b + 1] = size - 2 else b[#b + 1] = 1 end
  b[#b + 1] = 1 -- search
  b[#b + 1] = 1 -- smooth under the query
  return op("smooth", bytes(unpack(b)))
end

-- op_theta: Theta* from s to g.  flags: 1, 2, 4 as path's, 8 sized (size
-- 2), 16 max_cost, 64 weight.
local function theta(s, g, flags)
  local b = { s, g, flags }
  if bit(flags, 2) then b[#b + 1] = 1 end
  if bit(flags, 8) then b[#b + 1] = 0 end
  if bit(flags, 16) then b[#b + 1] = 9 end
  if bit(flags, 64) then b[#b + 1] = 2 end
  b[#b + 1] = 1 -- no edit after begin, no best cell, rates as they are
  b[#b + 1] = slices(8)
  return op("theta", bytes(unpack(b)))
end

-- op_repair: a field (sources, reverse, flags as field's 1, 2, 4, 8), the
-- change log's capacity, rounds of edits {x, y, kind, arg}: kind 0 toggles
-- blocked, 1 sets a cost (arg), 2 a tag (arg).
local function repair(srcs, o, rounds)
  local flags = o.flags or 0
  local b = { #srcs - 1 }
  for _, v in ipairs(srcs) do b[#b + 1] = v end
  b[#b + 1] = o.reverse and 1 or 0
  b[#b + 1] = flags
  if bit(flags, 2) then b[#b + 1] = 1 end
  if bit(flags, 8) then b[#b + 1] = o.max_cost or 11 end
  b[#b + 1] = (o.cap or 16) - 1
  b[#b + 1] = #rounds - 1
  for _, round in ipairs(rounds) do
    b[#b + 1] = #round
    for _, e in ipairs(round) do
      b[#b + 1] = e[1]; b[#b + 1] = e[2]; b[#b + 1] = e[3]
      if e[3] ~= 0 then b[#b + 1] = e[4] end
    end
    b[#b + 1] = 15 -- slice
  end
  return op("repair", bytes(unpack(b)))
end

-- op_fault: a query (flags as path's 1, 2, 4; size), pairs {from, to}
-- (from -1: where the unit stands), then the source of the reachability
-- check.
local function fault(flags, size, pairs, src)
  local b = { flags }
  if bit(flags, 2) then b[#b + 1] = 1 end
  b[#b + 1] = size - 1
  b[#b + 1] = 1 -- the query, not NULL
  b[#b + 1] = #pairs - 1
  for _, p in ipairs(pairs) do b[#b + 1] = p[1] + 1; b[#b + 1] = p[2]; b[#b + 1] = 1 end
  b[#b + 1] = src
  return op("fault", bytes(unpack(b)))
end

-- op_forbid: tag T forbidden two ways, on a path s -> g (size), a field,
-- faults and (square) a segment and Theta*.
local function forbid(T, s, g, size, seg)
  local flags = 2 + ((size or 1) > 1 and 8 or 0)
  local b = { T - 1, 1, s, g, 0, 2, flags, 1 }
  if bit(flags, 8) then b[#b + 1] = size - 2 end
  b[#b + 1] = 1 -- reverse field
  for i = 1, 4 do b[#b + 1] = (s + i) % 200 + 1; b[#b + 1] = (g + 3 * i) % 200 end
  for _, v in ipairs(seg or { 0, 0, 3, 2 }) do b[#b + 1] = v end
  return op("forbid", bytes(unpack(b)))
end

-- fuzz_tables: landmarks (kind 0) or automatic clusters (1), k, then goals.
local function tables(kind, k)
  return op("tables", bytes(kind, k, 5, 0, slices(40)))
end

-- op_jumps: the jump table built, then rounds {edits, s, g, plus, stop,
-- spoil}: edits {x, y, blocked} before the query, plus (JPS_PLUS, else
-- AUTO), spoil (0 size 2, 1 weight 2, 2 modifiers (flags follow), 3
-- track_best, 4 nothing); drop: the table dropped after.
local function jumps(rounds, drop)
  local b = { #rounds - 1 }
  for _, rd in ipairs(rounds) do
    b[#b + 1] = #rd.edits
    for _, e in ipairs(rd.edits) do b[#b + 1] = e[1]; b[#b + 1] = e[2]; b[#b + 1] = e[3] end
    b[#b + 1] = rd[1]; b[#b + 1] = rd[2]; b[#b + 1] = rd.plus and 1 or 0
    b[#b + 1] = rd.stop or 0; b[#b + 1] = rd.spoil or 4
    if (rd.spoil or 4) == 2 then b[#b + 1] = rd.flags or 1 end
  end
  b[#b + 1] = drop and 0 or 1
  return op("jumps", bytes(unpack(b)))
end

-- op_bulk: edits {kind, x, y, arg} as one change (kind 0 blocked, 1 cost
-- 0..3, 2 tag 0..3), nested once or twice; then two questions {node,
-- cells...} (connected between neighbours in the list, would_disconnect).
local function bulk(list, nest, questions)
  local b = { #list - 1, nest - 1 }
  for _, e in ipairs(list) do b[#b + 1] = e[1]; b[#b + 1] = e[2]; b[#b + 1] = e[3]; b[#b + 1] = e[4] end
  for _, qn in ipairs(questions) do
    b[#b + 1] = qn[1]
    b[#b + 1] = #qn - 1
    for i = 2, #qn do b[#b + 1] = qn[i] end
  end
  return op("bulk", bytes(unpack(b)))
end

-- op_qrepair: a search (o.flags: 1, 2, 4 as path's, 8 a distance search
-- from s (and g with o.two), 16 reverse, 32 size 2, 64 spoiled by o.spoil:
-- 0 weight 2, 1 stop optimal, 2 trace, 3 max_expansions, 4 track_best, 5 a
-- bad id), o.h, o.alg, o.pre expansions, then the edits and its repair.
-- Edits: grids {0, x, y} toggles blocked, {1, x, y, cost}, {2, x, y, tag};
-- graphs {0, node} toggles it, {1, edge, cost}, {2, a, b, tag, cost} adds.
local function qrepair(s, g, o, edits)
  local flags = o.flags or 0
  local b = { s, g, flags }
  if bit(flags, 2) then b[#b + 1] = o.scale or 1 end
  if bit(flags, 8) then b[#b + 1] = o.two and 1 or 0 end
  b[#b + 1] = (o.h or -1) + 1
  b[#b + 1] = o.alg or 1
  if bit(flags, 64) then b[#b + 1] = o.spoil or 0 end
  b[#b + 1] = (o.pre or 8) - 1
  b[#b + 1] = 7 -- slices of 8 after the repair
  b[#b + 1] = #edits
  for _, e in ipairs(edits) do
    for i = 1, #e - ((e[1] == 0 or (e[1] == 2 and not o.graph)) and 0 or 1) do b[#b + 1] = e[i] end
    if e[1] == 1 or (e[1] == 2 and o.graph) then b[#b + 1] = 1; b[#b + 1] = e[#e] end
  end
  if o.spoil == 5 then b[#b + 1] = 1 end
  return op("qrepair", bytes(unpack(b)))
end

-- ---- the seeds ---------------------------------------------------------------

local seeds = {}
local function seed(name, s) seeds[#seeds + 1] = { name = name, data = s } end

local rules = { "never", "no_corner_cutting", "one_obstacle", "always" }
local layouts = { "odd_r", "even_r", "odd_q", "even_q" }

for r, rule in ipairs(rules) do
  local kind, w, h = r, 9, 8
  local n, last = w * h, w * h - 1
  -- open ground, a few walls: the plain fast path, jump point search, units,
  -- fields, clearance, segments, smoothing, Theta*
  local name = "lattice-square-" .. rule .. "-open"
  seed(name .. "-paths", input(kind, grid_build(name, { w = w, h = h, walls = 12 }), {
    path(0, last, { alg = 1 }),                              -- plain A*
    path(last, 0, { alg = 0, stop = 1, tie = 1 }),           -- AUTO: jps where it serves
    jps(0, last, { explicit = true, h = 3 }),
    jps(3, last - 4, { explicit = true, spoil = 5, stop = 2 }),
    path(0, last, { size = 2, h = 0 }, true),
    path(n - w, 2, { size = 3, stop = 2 }, true),
    field({ last }, { reverse = true }),
    field({ 0, 40 }, { flags = 16, size = 2 }),
    field({ 10 }, { flags = 16 + 8, size = 2, reverse = true, max_cost = 9 }),
  }))
  seed(name .. "-geometry", input(kind, grid_build(name, { w = w, h = h, walls = 12 }), {
    clear({ { 4, 4, 1 }, { 4, 4, 0 }, { 2, 5, 1 } }, { { 0, last, 2 }, { 9, 35, 1 }, { 1, 60, 3 } }),
    segment(0, 0, { { 0, 0, 8, 7 }, { 1, 6, 7, 1 }, { 0, 0, 2, 2 }, { 3, 3, 3, 3 } }),
    segment(1, 0, { { 8, 0, 0, 7 }, { 2, 1, 6, 4 } }),
    smooth(0, last, 0, 1),
    smooth(n - w, 8, 0, 2),
    theta(0, last, 0),
    theta(last, 4, 8),
    sight({ { 0, last }, { 5, 66 }, { 20, 30 } }, 31, 204),
    sight({ { 13, 50 } }, 40, 3),
    fault(0, 1, { { -1, 10 }, { 10, 11 }, { 10, 20 }, { 10, 19 }, { 0, 71 } }, 0),
    fault(0, 2, { { -1, 0 }, { 0, 10 }, { 20, 29 } }, 0),
  }))
  -- costs, tags, penalties, forbid values, a forbidding factor: the general
  -- path, modifiers everywhere, repair, the forbidding tag
  name = "lattice-square-" .. rule .. "-costly"
  local build = grid_build(name, { w = w, h = h, walls = 10, costly = true,
                                   factors = { 1, 2, false, 0 } })
  seed(name .. "-paths", input(kind, build, {
    path(0, last, { flags = 1 + 2 + 4, stop = 2, h = 3 }),
    path(last, 0, { flags = 1 + 8 + 16, max_cost = 15, weight = 2, alg = 1 }),
    path(5, 60, { flags = 32 + 64, max_exp = 12, h = 8 }),
    path(0, last, { flags = 1 + 2 + 4, stop = 2, size = 2 }, true),
    field({ 0, last }, { flags = 1 + 2 + 4, reverse = true }),
    field({ 30 }, { flags = 1 + 4 + 8, max_cost = 7 }),
    jps(0, last, { spoil = 1 }),
    segment(2, 7, { { 0, 0, 8, 7 }, { 0, 7, 8, 0 }, { 4, 0, 4, 7 } }),
    segment(3, 5, { { 0, 0, 6, 5 }, { 1, 1, 5, 2 } }),
    smooth(0, last, 7, 1),
    theta(0, last, 1 + 2 + 4),
    theta(last, 0, 1 + 16 + 64),
  }))
  seed(name .. "-repair", input(kind, build, {
    repair({ last }, { reverse = true, flags = 1 + 2 + 4, cap = 16 }, {
      { { 4, 4, 0 }, { 5, 5, 1, 3 }, { 6, 2, 2, 2 } },
      { { 4, 4, 0 }, { 1, 1, 0 } },
      {},
    }),
    repair({ 0, 40 }, { flags = 8, max_cost = 11, cap = 4 }, {
      { { 3, 3, 0 }, { 2, 6, 1, 9 } },
      { { 0, 1, 0 }, { 1, 0, 0 }, { 2, 2, 0 }, { 3, 3, 0 }, { 4, 4, 0 } },
    }),
    forbid(2, 0, last, 1),
    forbid(1, last, 0, 2, { 0, 7, 8, 0 }),
    fault(1 + 4, 1, { { -1, 12 }, { 12, 13 }, { 12, 22 }, { 30, 21 } }, 0),
    edit({ { 0, 3, 3, 1 }, { 1, 4, 4, 6 }, { 2, 5, 5, 3 }, { 3, 1, 1, 0 }, { 7, 2, 2 } }, { 0, last, 0, 40 }),
    sight({ { 0, last }, { 8, 63 } }, 0, 5),
    tables(0, 3),
  }))
  -- the jump table (built on no_corner_cutting grids, refused on the
  -- others), repaired by single and bulk edits; edits as one change and
  -- the component questions
  name = "lattice-square-" .. rule .. "-jumps"
  seed(name, input(kind, grid_build(name, { w = w, h = h, walls = 14 }), {
    jumps({
      { 0, last, plus = true, edits = {} },
      { last, 4, plus = false, stop = 2, edits = { { 4, 3, 1 }, { 4, 4, 1 } } },
      { 9, last - 9, plus = true, spoil = 0, edits = { { 4, 3, 0 } } },
      { 2, 60, plus = true, spoil = 1, edits = { { 0, 5, 1 } } },
    }),
    path(0, last, { alg = 3 }),                               -- JPS+ through op_path
    bulk({ { 0, 4, 2, 1 }, { 0, 4, 5, 1 }, { 1, 6, 6, 3 }, { 2, 7, 1, 2 }, { 0, 4, 2, 0 } }, 2,
         { { 40, 0, last, 36 }, { 31, 22, 40, 49 } }),
    bulk({ { 0, 1, 1, 0 } }, 1, { { 13, 4, 22 }, { 0, 0 } }),  -- nothing changes: no version
    jumps({
      { last, 0, plus = true, stop = 1, edits = { { 5, 5, 1 }, { 5, 6, 1 }, { 5, 7, 1 } } },
      { 0, last, plus = false, spoil = 3, edits = {} },
      { 0, last, plus = true, spoil = 2, flags = 4, edits = { { 1, 1, 1 } } },
    }, true),
    jumps({ { 3, last - 2, plus = true, spoil = 2, flags = 1, edits = {} } }),
  }))
  -- query repair: paths and distance searches stepped part way, edited,
  -- repaired and run to the end (and the queries repair refuses)
  name = "lattice-square-" .. rule .. "-qrepair"
  build = grid_build(name, { w = w, h = h, walls = 10, costly = true, factors = { 1, 2, false, 3 } })
  seed(name, input(kind, build, {
    qrepair(0, last, { pre = 10 }, { { 0, 4, 4 }, { 0, 4, 5 }, { 1, 3, 3, 5 } }),
    qrepair(last, 0, { flags = 1 + 2 + 4, pre = 20 }, { { 2, 5, 5, 2 }, { 0, 6, 6 }, { 1, 7, 1, 0 } }),
    qrepair(20, last - 20, { flags = 32, pre = 2 }, { { 0, 2, 2 }, { 0, 3, 1 } }),
    qrepair(40, last, { flags = 8 + 1 + 4, two = true, pre = 16 }, { { 0, 4, 4 }, { 2, 2, 6, 2 } }),
    qrepair(last, 0, { flags = 8 + 16, pre = 6 }, { { 1, 8, 6, 4 }, { 0, 7, 7 } }),
    qrepair(0, last, { flags = 64, spoil = 0, pre = 4 }, { { 0, 1, 1 } }),
    qrepair(0, last, { flags = 64, spoil = 5, pre = 4 }, { { 0, 1, 2 } }),
    qrepair(0, last, { alg = 0, h = 2, pre = 4 }, { { 0, 3, 3 } }),          -- jps or manhattan
    qrepair(0, 1, { pre = 24 }, { { 0, 5, 5 } }),                            -- finished: ESTATE
  }))
end

for l, layout in ipairs(layouts) do
  local kind, w, h = 4 + l, 8, 9
  local n, last = w * h, w * h - 1
  local name = "lattice-hex-" .. layout .. "-open"
  local build = grid_build(name, { w = w, h = h, walls = 12 })
  seed(name, input(kind, build, {
    path(0, last, { alg = 1, h = 7 }),                        -- plain, the hex estimate
    path(last, 0, { h = 1, stop = 2, tie = 1 }),
    path(0, last, { size = 2, h = 7 }, true),
    path(n - w, 7, { size = 3, stop = 2 }, true),
    field({ last }, { reverse = true }),
    field({ 0, 30 }, { flags = 16, size = 2 }),
    field({ 36 }, { flags = 16, size = 2, reverse = true }),
    clear({ { 3, 4, 1 }, { 3, 4, 0 }, { 5, 2, 1 }, { 0, 0, 1 } }, { { 9, last, 2 }, { 10, 50, 2 }, { 27, 45, 3 } }),
    sight({ { 0, last }, { 5, 66 }, { 20, 30 }, { 36, 44 } }, 36, 3),
    sight({ { 1, 62 } }, 27, 204),
    fault(0, 2, { { -1, 20 }, { 20, 21 }, { 20, 28 }, { 20, 29 }, { 20, 22 } }, 20),
    jps(0, last, { explicit = true }),                        -- refused
  }))
  name = "lattice-hex-" .. layout .. "-costly"
  build = grid_build(name, { w = w, h = h, walls = 10, costly = true, factors = { 1, 3, false, 0 } })
  seed(name, input(kind, build, {
    path(0, last, { flags = 1 + 2 + 4, stop = 2, h = 7 }),
    path(last, 3, { flags = 1 + 8 + 16, max_cost = 14, weight = 2 }),
    path(0, last, { flags = 1 + 2 + 4, stop = 2, size = 2 }, true),
    field({ 0, last }, { flags = 1 + 2 + 4, reverse = true }),
    repair({ last }, { reverse = true, flags = 1 + 2 + 4, cap = 16 }, {
      { { 3, 3, 0 }, { 4, 5, 1, 4 }, { 2, 6, 2, 2 } },
      { { 3, 3, 0 }, { 6, 1, 0 } },
    }),
    repair({ 0, 35 }, { flags = 8, max_cost = 10, cap = 3 }, {
      { { 2, 2, 0 }, { 1, 5, 1, 7 } },
      { { 0, 1, 0 }, { 1, 1, 0 }, { 2, 1, 0 }, { 3, 1, 0 } },
    }),
    forbid(2, 0, last, 1),
    forbid(1, last, 0, 2),
    fault(1 + 4, 1, { { -1, 12 }, { 12, 13 }, { 12, 20 }, { 30, 21 } }, 0),
    edit({ { 0, 3, 3, 1 }, { 1, 4, 4, 6 }, { 2, 5, 5, 3 }, { 7, 2, 2 } }, { 0, last, 0, 40 }),
    tables(1, 4),
  }))
  name = "lattice-hex-" .. layout .. "-bulk"
  seed(name, input(kind, grid_build(name, { w = w, h = h, walls = 14 }), {
    bulk({ { 0, 3, 2, 1 }, { 0, 3, 3, 1 }, { 0, 3, 4, 1 }, { 1, 5, 5, 2 }, { 2, 6, 1, 3 } }, 2,
         { { 30, 0, last, 27 }, { 21, 20, 22, 29, 13 } }),
    bulk({ { 0, 3, 3, 0 }, { 0, 3, 3, 0 } }, 1, { { 35, 27, 43 }, { 4, 4 } }),
    op("jumps", bytes(0)),                                    -- refused: no jump table on hex
    path(0, last, { alg = 3 }),                               -- JPS+ refused
  }))
  name = "lattice-hex-" .. layout .. "-qrepair"
  build = grid_build(name, { w = w, h = h, walls = 10, costly = true, factors = { 1, 2, false, 3 } })
  seed(name, input(kind, build, {
    qrepair(0, last, { h = 7, pre = 10 }, { { 0, 3, 4 }, { 0, 4, 4 }, { 1, 2, 3, 5 } }),
    qrepair(last, 0, { flags = 1 + 2 + 4, pre = 20 }, { { 2, 5, 5, 2 }, { 0, 6, 6 } }),
    qrepair(20, last - 20, { flags = 32, pre = 2 }, { { 0, 2, 2 }, { 0, 3, 1 } }),
    qrepair(30, last, { flags = 8 + 1, two = true, pre = 16 }, { { 0, 4, 4 }, { 1, 2, 6, 3 } }),
    qrepair(last, 0, { flags = 8 + 16 + 32, pre = 4 }, { { 0, 3, 3 } }),
    qrepair(0, last, { flags = 64, spoil = 2, pre = 4 }, { { 0, 1, 1 } }),
  }))
end

-- graphs (graph_build, graph_query, graph_distances, graph_edit)
do
  local r = rng("lattice-graph")
  local nn, edges = 12, {}
  for i = 0, nn - 1 do -- a ring both ways, and chords
    edges[#edges + 1] = { i, (i + 1) % nn, 1 + r(5), r(4) }
    edges[#edges + 1] = { (i + 1) % nn, i, 1 + r(5), r(4) }
    edges[#edges + 1] = { i, r(nn), r(9), r(4) }
  end
  local b = { nn - 1, #edges }
  for i = 0, nn - 1 do b[#b + 1] = i % 4; b[#b + 1] = math.floor(i / 4); b[#b + 1] = 0 end
  for _, e in ipairs(edges) do
    b[#b + 1] = 0; b[#b + 1] = 0; b[#b + 1] = 0; b[#b + 1] = e[1] + 1 -- u32: from + 1
    b[#b + 1] = e[2]; b[#b + 1] = e[3]; b[#b + 1] = e[4]
  end
  for i = 0, nn - 1 do b[#b + 1] = i == 5 and 0 or 1 end  -- node 5 disabled
  for _, v in ipairs({ 1, 2, 0, 3 }) do                 -- factors: 1, 2, forbid, 3
    if v == 0 then b[#b + 1] = 0 else b[#b + 1] = 1; b[#b + 1] = v end
  end
  for i = 0, nn - 1 do
    if i % 5 == 2 then b[#b + 1] = 0; b[#b + 1] = 2 else b[#b + 1] = 1 end -- penalty
    b[#b + 1] = i == 7 and 0 or 1                                        -- forbid
  end
  for i = 0, 63 do b[#b + 1] = 1; b[#b + 1] = i % 3 end                 -- h table
  for i = 0, 255 do                                                     -- cost table
    if i % 7 == 0 then b[#b + 1] = 0; b[#b + 1] = 1 + i % 9 else b[#b + 1] = 1 end
  end
  local build = bytes(unpack(b))
  -- graph_query: start (u32), goal, heuristic, weight, stop, tie, tags,
  -- penalty, forbid, callback h, cost callback, trace, visited, track, abort
  local function gq(s, g, h, stop, extra)
    extra = extra or {}
    local q = { 0, 0, 0, s, g, h, 1, 1, stop, 0 }
    if extra.tags then q[#q + 1] = 1; q[#q + 1] = 4 else q[#q + 1] = 0 end
    if extra.pen then q[#q + 1] = 0; q[#q + 1] = 1 else q[#q + 1] = 1 end
    q[#q + 1] = extra.forbid and 0 or 1
    if h ~= 8 then q[#q + 1] = 0 end -- no heuristic callback unless asked
    q[#q + 1] = extra.cost and 0 or 1
    q[#q + 1] = 1; q[#q + 1] = 1; q[#q + 1] = 0; q[#q + 1] = 1 -- trace, visited, no track, no abort
    q[#q + 1] = slices(8)
    return op("path", bytes(unpack(q)))
  end
  seed("lattice-graph-paths", input(0, build, {
    gq(0, 6, 1, 0),
    gq(3, 9, 0, 2, { tags = true, pen = true, forbid = true }),
    gq(11, 2, 8, 0, { cost = true }),
    op("field", bytes(1, 0, 6, 1, 1, slices(8))),
    tables(0, 3),
  }))
  seed("lattice-graph-edits", input(0, build, {
    op("edit", bytes(3, 6, 1, 1, 0, 3, 1, 0, 9, 10, 1, 0, 5, 0)),
    op("units", bytes(0)),
    op("jps", bytes(0)),
    op("clear", bytes(0)),
    op("jumps", bytes(0)),
    op("bulk", bytes(0)),
    gq(0, 9, 2, 1),
    tables(1, 2),
  }))
  local G = { graph = true }
  local function go(o) for k, v in pairs(G) do o[k] = v end return o end
  seed("lattice-graph-qrepair", input(0, build, {
    qrepair(0, 6, go({ pre = 3 }), { { 0, 2 }, { 1, 4, 9 }, { 2, 0, 6, 0, 5 } }),
    qrepair(3, 9, go({ h = 0, flags = 1 + 2 + 4, pre = 4 }), { { 0, 5 }, { 1, 10, 0 } }),
    qrepair(11, 2, go({ h = 4, pre = 2 }), { { 2, 11, 2, 1, 1 }, { 0, 1 } }),
    qrepair(0, 7, go({ flags = 8 + 16, two = true, pre = 5 }), { { 1, 3, 5 }, { 0, 8 } }),
    qrepair(0, 6, go({ flags = 64, spoil = 1, pre = 2 }), { { 0, 3 } }),
    qrepair(0, 6, go({ flags = 64, spoil = 5, pre = 2 }), { { 1, 2, 2 } }),
  }))
end

for _, s in ipairs(seeds) do
  local f = assert(io.open(dir .. "/" .. s.name, "wb"))
  f:write(s.data)
  f:close()
end
print(("make_seeds: %d seeds in %s"):format(#seeds, dir))
