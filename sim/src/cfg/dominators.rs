//! The post-dominator tree of a region's CFG: dead ends (sink components that cannot
//! reach the exit, such as infinite loops) connected to the exit, then immediate
//! post-dominators by Cooper, Harvey and Kennedy's iterative algorithm.

/// Give every sink strongly connected component of the blocks that cannot reach `exit`
/// an edge from its highest block to `exit`, so that all blocks reach it.
pub(super) fn connect_dead_ends(succ: &mut [Vec<usize>], exit: usize) {
    let n = succ.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (u, s) in succ.iter().enumerate() {
        for &v in s {
            preds[v].push(u);
        }
    }
    let mut reach = vec![false; n];
    reach[exit] = true;
    let mut stack = vec![exit];
    while let Some(v) = stack.pop() {
        for &u in &preds[v] {
            if !reach[u] {
                reach[u] = true;
                stack.push(u);
            }
        }
    }
    if reach.iter().all(|&x| x) {
        return;
    }
    // Tarjan's SCCs over the unreached nodes (iterative).
    const NONE: usize = usize::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on = vec![false; n];
    let mut comp = vec![NONE; n];
    let mut st: Vec<usize> = Vec::new();
    let mut next_index = 0;
    let mut ncomp = 0;
    for s0 in 0..n {
        if reach[s0] || index[s0] != NONE {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(s0, 0)];
        index[s0] = next_index;
        low[s0] = next_index;
        next_index += 1;
        st.push(s0);
        on[s0] = true;
        while let Some(&(v, ci)) = call.last() {
            if ci < succ[v].len() {
                call.last_mut().unwrap().1 += 1;
                let w = succ[v][ci];
                if reach[w] {
                    continue;
                }
                if index[w] == NONE {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    st.push(w);
                    on[w] = true;
                    call.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = st.pop() {
                        on[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    let mut sink = vec![true; ncomp];
    let mut top = vec![0usize; ncomp];
    for v in 0..n {
        if reach[v] {
            continue;
        }
        let c = comp[v];
        top[c] = top[c].max(v);
        if succ[v].iter().any(|&w| !reach[w] && comp[w] != c) {
            sink[c] = false;
        }
    }
    for c in 0..ncomp {
        if sink[c] {
            let v = top[c];
            succ[v].push(exit);
            succ[v].sort_unstable();
            succ[v].dedup();
        }
    }
}

/// Immediate post-dominators: dominators of the reversed graph rooted at `exit`
/// (Cooper, Harvey, Kennedy). `None` for `exit` itself and for nodes that cannot reach it.
pub(super) fn post_dominators(succ: &[Vec<usize>], exit: usize) -> Vec<Option<usize>> {
    let n = succ.len();
    // Reversed graph: its successors are the CFG's predecessors.
    let mut rsucc: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (u, s) in succ.iter().enumerate() {
        for &v in s {
            rsucc[v].push(u);
        }
    }
    // Postorder of the reversed graph from the exit.
    const NONE: usize = usize::MAX;
    let mut po = vec![NONE; n];
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut call: Vec<(usize, usize)> = vec![(exit, 0)];
    seen[exit] = true;
    while let Some(&(v, ci)) = call.last() {
        if ci < rsucc[v].len() {
            call.last_mut().unwrap().1 += 1;
            let w = rsucc[v][ci];
            if !seen[w] {
                seen[w] = true;
                call.push((w, 0));
            }
        } else {
            call.pop();
            po[v] = order.len();
            order.push(v);
        }
    }
    let mut idom = vec![NONE; n];
    idom[exit] = exit;
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().rev() {
            if v == exit {
                continue;
            }
            // The reversed graph's predecessors of v are v's CFG successors.
            let mut new = NONE;
            for &p in &succ[v] {
                if idom[p] == NONE {
                    continue;
                }
                new = if new == NONE {
                    p
                } else {
                    let (mut a, mut b) = (new, p);
                    while a != b {
                        while po[a] < po[b] {
                            a = idom[a];
                        }
                        while po[b] < po[a] {
                            b = idom[b];
                        }
                    }
                    a
                };
            }
            if new != NONE && idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|v| {
            if v == exit || idom[v] == NONE {
                None
            } else {
                Some(idom[v])
            }
        })
        .collect()
}
