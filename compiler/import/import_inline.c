/*
** import_inline.c: the inline pass, run during import.
** A (Stateful)PartitionedCall, or a node whose op names a library function,
** instantiates the callee's body as a new scope whose arguments are the call's
** data inputs; its results become the call's outputs.  The IR never holds a
** call.  Recursion through any path and nesting deeper than
** limits->call_depth are errors (docs/reliability.md U1, U2).
*/
#include <stdint.h>
#include <string.h>

#include "import_internal.h"

int sm2c_import_is_call(importer *im, const Tensorflow__NodeDef *nd, const char **fname)
{
    if (strcmp(nd->op, "StatefulPartitionedCall") == 0 || strcmp(nd->op, "PartitionedCall") == 0) {
        const Tensorflow__AttrValue *f = sm2c_node_attr(nd, "f");
        *fname = f && f->value_case == TENSORFLOW__ATTR_VALUE__VALUE_FUNC && f->func ? f->func->name
                                                                                   : NULL;
        return 1;
    }
    *fname = nd->op;
    return sm2c_strmap_get(im->m->functions, nd->op) != NULL;
}

/* The functions being instantiated, each with how many of its scopes are
** open: a lookup, where walking the scope chain per call was quadratic in
** the call depth. */
static intptr_t *open_count(importer *im, const char *fname)
{
    if (!im->open_fns)
        im->open_fns = sm2c_strmap_new(im->c->arena, 16);
    intptr_t *n = sm2c_strmap_get(im->open_fns, fname);
    if (!n) {
        n = sm2c_arena_alloc(im->c->arena, sizeof *n);
        *n = 0;
        sm2c_strmap_put(im->open_fns, fname, n);
    }
    return n;
}

static sm2c_status check_recursion(importer *im, scope *s, const Tensorflow__NodeDef *nd,
                                   const char *fname)
{
    if (*open_count(im, fname))
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "function '%s' is recursive", fname);
    if (s->depth + 1 > im->c->limits->call_depth)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_LIMIT,
                   "calls nest deeper than the limit (--limit call-depth=N) at '%s'", fname);
    return SM2C_OK;
}

/* The data returns, then every control_ret node with effects. */
static const char **control_roots(importer *im, const scope *callee, const Tensorflow__FunctionDef *f,
                                  const char **rets, size_t *n)
{
    const char **all = sm2c_arena_array(im->c->arena, *n + f->n_control_ret + 1, sizeof *all);
    memcpy(all, rets, *n * sizeof *all);
    for (size_t k = 0; k < f->n_control_ret; k++) {
        const char *name = f->control_ret[k]->value;
        for (size_t j = 0; name && j < callee->n_nodes; j++)
            if (strcmp(callee->nodes[j]->name, name) == 0 && sm2c_import_follow_control(callee->nodes[j]))
                all[(*n)++] = name;
    }
    return all;
}

/* "f/g/h", the calls down to here, for diagnostics and comments.  Past
** PATH_LEVELS levels "<the first PATH_LEVELS>/.../h": a full path per level
** made memory quadratic in the call depth. */
enum { PATH_LEVELS = 64 };

static const char *call_path(importer *im, const scope *s, const char *fname, const char **head)
{
    if (s->depth + 1 > PATH_LEVELS) {
        *head = s->path_head;
        return sm2c_arena_printf(im->c->arena, "%s/.../%s", s->path_head, fname);
    }
    *head = s->path[0] ? sm2c_arena_printf(im->c->arena, "%s/%s", s->path, fname) : fname;
    return *head;
}

/* Instantiate the callee with the call's data inputs as its arguments. */
sm2c_status sm2c_import_call(importer *im, scope *s, int32_t i, const char *fname,
                               sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    fname = sm2c_import_cpu_variant(im, fname);
    const Tensorflow__FunctionDef *f = fname ? sm2c_strmap_get(im->m->functions, fname) : NULL;
    if (!f)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "calls function '%s', which is not in the library",
                   fname ? fname : "");
    sm2c_status st = check_recursion(im, s, nd, fname);
    if (st)
        return st;
    im->instantiated += (int64_t)f->n_node_def + 1;
    if (im->instantiated > im->c->limits->graph_nodes)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_LIMIT,
                               "inlining '%s' takes the graph past the node limit (--limit graph-nodes=N)",
                               fname);
    const Tensorflow__OpDef *sig = f->signature;
    if ((size_t)n_ins != sig->n_input_arg)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "passes the wrong number of arguments to '%s'", fname);
    scope callee = { .fname = fname, .parent = s, .depth = s->depth + 1,
                     .nodes = f->node_def, .n_nodes = f->n_node_def };
    callee.path = call_path(im, s, fname, &callee.path_head);
    callee.args = sm2c_strmap_new(im->c->arena, sig->n_input_arg);
    for (size_t k = 0; k < sig->n_input_arg; k++)
        sm2c_strmap_put(callee.args, sig->input_arg[k]->name, ins[k]);
    const char **rets = sm2c_arena_array(im->c->arena, sig->n_output_arg + 1, sizeof *rets);
    for (size_t k = 0; k < sig->n_output_arg; k++) {
        rets[k] = NULL;
        for (size_t r = 0; r < f->n_ret; r++)
            if (strcmp(f->ret[r]->key, sig->output_arg[k]->name) == 0)
                rets[k] = f->ret[r]->value;
        if (!rets[k])
            return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "function '%s' does not return all its outputs",
                       fname);
    }
    /* Then the nodes it must run whatever it returns (control_ret: writes, ...). */
    size_t n_roots = sig->n_output_arg;
    rets = control_roots(im, &callee, f, rets, &n_roots);
    intptr_t *open = open_count(im, fname);
    ++*open;
    st = sm2c_import_scope(im, &callee, rets, n_roots);
    --*open;
    if (st)
        return st;
    s->n_outs[i] = (int32_t)sig->n_output_arg;
    s->outs[i] = sm2c_arena_array(im->c->arena, sig->n_output_arg + 1, sizeof **s->outs);
    for (size_t k = 0; k < sig->n_output_arg; k++)
        if (!(s->outs[i][k] = sm2c_import_resolve(im, &callee, NULL, rets[k])))
            return SM2C_ERR_INVALID;
    return SM2C_OK;
}
