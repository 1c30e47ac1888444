-- Rules 3 and 4: a running search locks its topology against mutators, and
-- the fields it uses as penalty or forbid against writes, for the whole call
-- (nested searches included).  The rules: spec/lifetime/common.lua.
local astar = require("astar")
local H = require("lifetime.common")
local REF = H.references()
local W, path_opts, octile, euclid_graph, query_digest = H.W, H.path_opts, H.octile, H.euclid_graph, H.query_digest
local same, usable, new_topo, do_find_path, do_query = H.same, H.usable, H.new_topo, H.do_find_path, H.do_query
local do_distances, path_ref, dist_ref, passthrough = H.do_distances, H.path_ref, H.dist_ref, H.passthrough

describe("lifetime: a search locks its topology against mutators", function()
  for _, kind in ipairs({ "grid", "graph" }) do
    local snapshot = kind == "grid" and H.grid_snapshot or H.graph_snapshot
    local ref_snapshot = kind == "grid" and REF.grid_snapshot or REF.graph_snapshot

    -- each entry: a label and a function(g, hook) -> the call's digest and
    -- its reference, where hook() runs in the middle of the call
    local searches = {
      { "find_path (heuristic callback)", function(g, hook)
        return H.path_digest(do_find_path(g, kind, path_opts({ heuristic = passthrough("heuristic", kind, hook) }))),
          path_ref(kind)
      end },
      { "find_path (cost callback)", function(g, hook)
        return H.path_digest(do_find_path(g, kind, path_opts({ cost = passthrough("cost", kind, hook) }))),
          path_ref(kind)
      end },
      { "q:step (cost callback)", function(g, hook)
        local q = do_query(g, kind, path_opts({ cost = passthrough("cost", kind, hook) }))
        return query_digest(q, q:step()), "found | found | found | " .. path_ref(kind) .. " | path | found"
      end },
      { "distances (cost callback)", function(g, hook)
        return do_distances(g, kind, { cost = passthrough("cost", kind, hook) }), dist_ref(kind)
      end },
      { "audit_heuristic (Lua heuristic)", function(g, hook)
        local h = kind == "grid" and octile or euclid_graph(new_topo(kind))
        local r = astar.audit_heuristic(g, function(...) hook() return h(...) end, { samples = 2 })
        return H.report_digest(r), kind == "grid" and REF.grid_audit_lua or REF.graph_audit_lua
      end },
      { "audit_heuristic (options' __index)", function(g, hook)
        local opts = setmetatable({}, { __index = function(_, k) if k == "samples" then hook() return 2 end end })
        local r = astar.audit_heuristic(g, kind == "grid" and "octile" or "euclidean", opts)
        return H.report_digest(r), kind == "grid" and REF.grid_audit or REF.graph_audit
      end },
      { "cluster_heuristic (clusters' __index)", function(g, hook)
        local clusters = setmetatable({}, { __index = function(_, k) if k == "count" then hook() return 3 end end })
        local h = astar.cluster_heuristic(g, clusters)
        return H.heur_digest(h, kind), H.heur_digest(astar.cluster_heuristic(new_topo(kind), { count = 3 }), kind)
      end },
    }
    for _, s in ipairs(searches) do
      it(("%s %s: every mutator raises '%s is being searched'"):format(kind, s[1], kind), function()
        local g = new_topo(kind)
        local tries = {}
        local got, want = s[2](g, function()
          if #tries < 2 then tries[#tries + 1] = H.try_mutators(g, kind) end
        end)
        same(want, got, "the answer")
        assert.is_true(#tries >= 1)
        for _, t in ipairs(tries) do assert.same(H.refused(kind), t) end
        same(ref_snapshot, snapshot(g), "the " .. kind)
        usable(g, kind)
        -- the search is over: the mutators work again
        for _, o in ipairs(H.try_mutators(g, kind)) do assert.equal("no error", o) end
      end)
    end

    it(("%s: the lock holds in a nested search and after it, until the outer one ends"):format(kind), function()
      local g = new_topo(kind)
      local during, after = {}, nil
      local p = do_find_path(g, kind, path_opts({ cost = passthrough("cost", kind, function()
        if after then return end
        do_find_path(g, kind, { cost = passthrough("cost", kind, function()
          if #during == 0 then during[1] = H.try_mutators(g, kind) end
        end) })
        after = H.try_mutators(g, kind)
      end) }))
      same(path_ref(kind), H.path_digest(p), "the path")
      assert.same(H.refused(kind), during[1])
      assert.same(H.refused(kind), after)
      same(ref_snapshot, snapshot(g), "the " .. kind)
      usable(g, kind)
    end)
  end
end)

-- ========================================================================
-- fields used by a search
-- ========================================================================

describe("lifetime: a search locks the fields it uses as penalty or forbid", function()
  local function forbid_field(g)
    local f = astar.field(g)
    for y = 21, 23 do f:set(12, y, 1) end
    return f
  end

  -- each entry: a label, the option, the field maker and a function(g, opts)
  -- -> digest, reference
  local uses = {
    { "find_path with penalty", "penalty", H.new_penalty, function(g, opts)
      return H.path_digest(g:find_path(1, 1, W, 1, path_opts(opts))), REF.grid_pen_path
    end },
    { "find_path with forbid", "forbid", forbid_field, function(g, opts)
      return H.path_digest(g:find_path(1, 1, W, 1, path_opts(opts))), REF.grid_forbid_path
    end },
    { "q:step with penalty", "penalty", H.new_penalty, function(g, opts)
      local q = g:query(1, 1, W, 1, path_opts(opts))
      return query_digest(q, q:step()), "found | found | found | " .. REF.grid_pen_path .. " | path | found"
    end },
    { "distances with penalty", "penalty", H.new_penalty, function(g, opts)
      return H.field_digest(g:distances({ { 1, 1 } }, opts)), REF.grid_pen_field
    end },
  }
  for _, u in ipairs(uses) do
    it(u[1] .. ": set, fill and add_disc raise 'field is being searched' from a callback", function()
      local g = H.new_grid()
      local f = u[3](g)
      local before = H.field_digest(f)
      local tries = {}
      local got, want = u[4](g, { [u[2]] = f, cost = function(_, _, _, _, c)
        if #tries < 2 then tries[#tries + 1] = H.try_field_writers(f) end
        return c
      end })
      same(want, got, "the answer (the cost follows the field as it was)")
      assert.is_true(#tries >= 1)
      for _, t in ipairs(tries) do assert.same(H.field_refused(), t) end
      same(before, H.field_digest(f), "the field")
      -- the search is over: the field is writable again
      assert.same({ "no error", "no error", "no error" }, H.try_field_writers(f))
      usable(g, "grid")
    end)
  end

  it("a nested search may use the same field; the lock holds until the outer search ends", function()
    local g = H.new_grid()
    local f = H.new_penalty(g)
    local inner, after
    local p = g:find_path(1, 1, W, 1, path_opts({ penalty = f, cost = function(_, _, _, _, c)
      if not inner then
        inner = H.path_digest(g:find_path(1, 1, W, 1, path_opts({ penalty = f })))
        after = H.try_field_writers(f)
      end
      return c
    end }))
    same(REF.grid_pen_path, H.path_digest(p), "the outer path")
    same(REF.grid_pen_path, inner, "the inner path")
    assert.same(H.field_refused(), after)
    same(REF.penalty, H.field_digest(f), "the field")
  end)

  it("a field the search does not use stays writable", function()
    local g = H.new_grid()
    local f, other = H.new_penalty(g), H.new_penalty(g)
    local tries
    local p = g:find_path(1, 1, W, 1, path_opts({ penalty = f, cost = function(_, _, _, _, c)
      tries = tries or H.try_field_writers(other)
      return c
    end }))
    same(REF.grid_pen_path, H.path_digest(p), "the path")
    assert.same({ "no error", "no error", "no error" }, tries)
    assert.equal(2, other:get(1, 1)) -- set to 7, then filled with 2
    assert.equal(3, other:get(3, 3)) -- and the disc added 1
  end)
end)
