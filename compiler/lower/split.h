/*
** split.h: how much work a step is, and which steps a context entry point
** splits into tasks (docs/design.md, "Concurrency").
*/
#ifndef SM2C_SPLIT_H
#define SM2C_SPLIT_H

#include <stdint.h>

#include "base/target.h"
#include "lower/program.h"

/* Most tasks one step is split into: a 64-core server's worth. */
#define SM2C_SPLIT_MAX_TASKS 64
/* Least work (multiply-adds, or window taps for a pool) that pays for one
** more task: the runtime's pool hands a task to another thread and waits for
** it in about a microsecond, some 30,000 multiply-adds on one x86-64 core. */
#define SM2C_SPLIT_TASK_WORK 32768
/* A step that shares a buffer with the split step just before it (most often
** it reads what that step wrote) finds that data in pieces on the cores that
** wrote them: run on one core it pulls the other pieces across first, so it
** splits into the same bands at this fraction of the task work.  Measured on
** a MobileNet of 96x96 pixels, two cores of different chiplets: 150 us a call
** with its small depthwise steps left whole, 127 us with them split. */
#define SM2C_SPLIT_LOCAL_DIVISOR 8

/* Multiply-accumulates of one kernel call, from its integer arguments: of
** matmul, matvec and convolution kernels, else 0. */
int64_t sm2c_step_macs(const sm2c_step *s);

/* The rows a step can be split along (0 when its kernel has no _par form, or
** these arguments run as one task), and its work in multiply-adds or taps. */
int64_t sm2c_step_split_rows(const sm2c_step *s, int64_t *work);

/* Its work: a splittable step's, else its multiply-adds (0 for most others). */
int64_t sm2c_step_work(const sm2c_step *s);

/* Sets every step's max_tasks: on a target with threads (not a Cortex-M),
** min(rows, work / task work, SM2C_SPLIT_MAX_TASKS) when that is 2 or more,
** else 1; the task work is t->task_work (--task-work), or by default
** SM2C_SPLIT_TASK_WORK, divided by SM2C_SPLIT_LOCAL_DIVISOR for a step that
** shares a buffer with the split step before it. */
void sm2c_program_split(sm2c_program *p, const sm2c_target *t);

/* 1 when some step of the program has max_tasks > 1. */
int sm2c_program_any_split(const sm2c_program *p);

#endif
