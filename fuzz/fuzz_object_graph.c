/*
** fuzz_object_graph.c (docs/reliability.md section 8, target 6; catalog U6): a u32
** length prefix splits the input into a SavedObjectGraph and the checkpoint's
** TrackableObjectGraph (absent when empty); both go through the pre-scan and
** unpack, then the variable mapping walks them together as sm2c_varmap_build
** does (ids, children, slot variables, bound inputs, paths, captures).
** Oracle: cycles and out-of-range ids are rejected or traversed a bounded
** number of times; every path and capture produced refers to a real node.
*/
#include "fuzz_common.h"
#include "load/pbwire.h"
#include "load/savedmodel.h"
#include "load/varmap_internal.h"

static void check_varmap(const Tensorflow__SavedObjectGraph *sg, const sm2c_varmap *vm)
{
    FUZZ_CHECK(vm->object_based && vm->n_objects == sg->n_nodes, "%zu objects for %zu nodes",
               vm->n_objects, sg->n_nodes);
    FUZZ_CHECK(vm->object_paths[0] && !vm->object_paths[0][0], "the root has a path");
    for (size_t i = 0; i < vm->n_vars; i++)
        FUZZ_CHECK(vm->vars[i].object_id >= 0 && (size_t)vm->vars[i].object_id < sg->n_nodes,
                   "variable %zu has object id %d", i, vm->vars[i].object_id);
    for (size_t i = 0; i < vm->n_fns; i++)
        for (size_t k = 0; k < vm->fns[i].n_captures; k++)
            FUZZ_CHECK((size_t)vm->fns[i].captures[k].object_id < sg->n_nodes,
                       "capture %zu of '%s'", k, vm->fns[i].name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *saved, *trackable;
    size_t n_saved, n_trackable;
    fuzz_split(data, size, &saved, &n_saved, &trackable, &n_trackable);
    fuzz_ctx f;
    fuzz_begin(&f);
    ProtobufCMessage *sg = NULL, *tg = NULL;
    sm2c_status st = sm2c_pb_unpack(&f.c, "object_graph_def", &tensorflow__saved_object_graph__descriptor,
                                    saved, n_saved, &sg);
    if (!st && n_trackable)
        st = sm2c_pb_unpack(&f.c, "_CHECKPOINTABLE_OBJECT_GRAPH",
                            &tensorflow__trackable_object_graph__descriptor, trackable,
                            n_trackable, &tg);
    if (!st) {
        /* The smallest model around the object graph; the main graph is empty. */
        static Tensorflow__GraphDef graph = TENSORFLOW__GRAPH_DEF__INIT;
        Tensorflow__MetaGraphDef mg = TENSORFLOW__META_GRAPH_DEF__INIT;
        mg.graph_def = &graph;
        mg.object_graph_def = (Tensorflow__SavedObjectGraph *)sg;
        sm2c_model m = { .dir = "model", .file = "model/saved_model.pb", .dirfd = -1,
                         .meta_graph = &mg, .graph = &graph,
                         .nodes = sm2c_strmap_new(f.arena, 1),
                         .functions = sm2c_strmap_new(f.arena, 1),
                         .bundle = sm2c_bundle_absent(&f.c, "model") };
        sm2c_varmap *vm;
        st = sm2c_varmap_build_objects(&f.c, &m, (Tensorflow__TrackableObjectGraph *)tg, &vm);
        if (!st && vm->object_based)
            check_varmap(mg.object_graph_def, vm);
    }
    fuzz_end(&f, st);
    return 0;
}
