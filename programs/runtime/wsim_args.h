#ifndef WSIM_ARGS_H
#define WSIM_ARGS_H

/* wsim_args.h - program arguments: `wsim run prog.elf -- ARG...`. A program that takes
 * arguments includes this header and declares the block once, at file scope, with
 * `WSIM_ARGS;`; the host fills it before the run as C's main would get
 * them: wsim_args.argc (the program's name and its arguments), wsim_args.argv (argv[0]
 * the program's name, a null pointer after the last). crt0 still calls main with argc 0:
 * read wsim_args instead. At most WSIM_ARGS_MAX strings of WSIM_ARGS_BYTES bytes in all,
 * NULs included (workloads/src/args_image.rs checks the layout); giving arguments to a
 * program without the block is an error. A header of its own: wsim.h's bytes, and so every
 * other program's line tables and cycle baselines, stay as they were. */
#define WSIM_ARGS_MAX   32
#define WSIM_ARGS_BYTES 1024
struct wsim_args {
    int argc;
    char **argv;
    char *pointers[WSIM_ARGS_MAX + 1];
    char text[WSIM_ARGS_BYTES];
};
#define WSIM_ARGS struct wsim_args wsim_args __attribute__((used))

#endif
