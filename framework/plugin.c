/* Run-time plugins: a shared object exporting a `pdt_plugin` record
 * (pdt_plugin.h) is opened with dlopen, its ABI checked, and its classes
 * registered by name as built-in ones.  A plugin stays loaded until the
 * process ends: models and rule sets keep pointers to its classes.
 *
 * One copy of libpdt per process.  A plugin calls the library (pdt_error_set,
 * pdt_rule_list_add, the predicates): those calls must reach the copy that
 * runs the fit, whose opaque structs they touch.  The pdt program links
 * libpdt.so and so does a plugin built with `pkg-config --libs pdt`, and the
 * loader finds both the same object.  A program with libpdt linked in
 * statically would get a second copy through the plugin's dependency; the
 * loader sees that (the plugin resolves pdt_plugin_load elsewhere than here)
 * and refuses the plugin instead of mixing two copies. */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pdt_plugin.h"

/* "plugin PATH: what" */
static pdt_status load_error(pdt_error *err, const char *path, const char *what, const char *detail)
{
    pdt_error_set(err, PDT_EPLUGIN, "plugin %s: %s%s", path, what, detail ? detail : "");
    return PDT_EPLUGIN;
}

/* The library copy the plugin's pdt_* references reach, when it links one. */
static pdt_status check_one_copy(void *handle, const char *path, pdt_error *err)
{
    void *theirs = dlsym(handle, "pdt_plugin_load");
    if (!theirs || theirs == (void *)pdt_plugin_load) return PDT_OK;
    Dl_info info;
    const char *where = dladdr(theirs, &info) && info.dli_fname ? info.dli_fname : "another libpdt";
    pdt_error_set(err, PDT_EPLUGIN, "plugin %s: it links %s, a second copy of libpdt beside the one "
                  "this program has built in (link the program with libpdt.so to load plugins)", path,
                  where);
    return PDT_EPLUGIN;
}

static pdt_status register_all(const pdt_plugin_info *info, const char *path, pdt_error *err)
{
    size_t n = 0;
    for (size_t i = 0; info->rules && info->rules[i]; i++, n++)
        if (pdt_rule_class_register(info->rules[i], path, err))
            return pdt_error_prefix(err, "plugin %s: ", path);
    for (size_t i = 0; info->problems && info->problems[i]; i++, n++)
        if (pdt_problem_class_register(info->problems[i], path, err))
            return pdt_error_prefix(err, "plugin %s: ", path);
    if (!n)
        return load_error(err, path, "its pdt_plugin record lists no rule or problem class", NULL);
    return PDT_OK;
}

/* Everything but registration, which may leave earlier classes of the same
 * file registered: a refused plugin is an error the run stops on. */
pdt_status pdt_plugin_load(const char *path, pdt_error *err)
{
    if (!path || !*path) return pdt_error_set(err, PDT_EINVAL, "plugin: empty file name");
    /* dlopen searches the library path for a bare name; a plugin is a file. */
    char *file = strchr(path, '/') ? strdup(path) : malloc(strlen(path) + 3);
    if (!file) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    if (!strchr(path, '/')) sprintf(file, "./%s", path);
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(file);
        return load_error(err, path, "no such file", NULL);
    }
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    free(file);
    if (!handle) return load_error(err, path, "cannot be loaded: ", dlerror());
    pdt_status s = check_one_copy(handle, path, err);
    const pdt_plugin_info *info = s ? NULL : dlsym(handle, "pdt_plugin");
    if (!s && !info)
        s = load_error(err, path, "no symbol \"pdt_plugin\": not a pdt plugin (define its class with "
                       "PDT_DEFINE_RULE or PDT_DEFINE_PROBLEM from pdt_plugin.h)", NULL);
    if (!s && info->abi != PDT_PLUGIN_ABI) {
        s = pdt_error_set(err, PDT_EPLUGIN, "plugin %s: built for plugin ABI %u, this pdt (%s) loads "
                          "ABI %u: rebuild it against this pdt's headers", path, info->abi,
                          PDT_VERSION_STRING, PDT_PLUGIN_ABI);
    }
    if (s) {
        dlclose(handle);
        return s;
    }
    return register_all(info, path, err); /* the handle is never closed */
}

static int so_filter(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return e->d_name[0] != '.' && n > 3 && strcmp(e->d_name + n - 3, ".so") == 0;
}

/* Every *.so of a directory, in name order. */
static pdt_status load_dir(const char *dir, pdt_error *err)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, so_filter, alphasort);
    if (n < 0) return pdt_error_set(err, PDT_EIO, "plugin directory %s: cannot be read", dir);
    pdt_status s = PDT_OK;
    for (int i = 0; i < n; i++) {
        char *p = s ? NULL : malloc(strlen(dir) + strlen(names[i]->d_name) + 2);
        if (!s && !p) s = pdt_error_set(err, PDT_ENOMEM, "out of memory");
        if (p) {
            sprintf(p, "%s/%s", dir, names[i]->d_name);
            s = pdt_plugin_load(p, err);
            free(p);
        }
        free(names[i]);
    }
    free(names);
    return s;
}

pdt_status pdt_plugin_load_list(const char *list, pdt_error *err)
{
    if (!list) return PDT_OK;
    char *copy = strdup(list);
    if (!copy) return pdt_error_set(err, PDT_ENOMEM, "out of memory");
    pdt_status s = PDT_OK;
    for (char *save = NULL, *entry = strtok_r(copy, ":", &save); entry && !s;
         entry = strtok_r(NULL, ":", &save)) {
        struct stat st;
        s = stat(entry, &st) == 0 && S_ISDIR(st.st_mode) ? load_dir(entry, err)
                                                         : pdt_plugin_load(entry, err);
    }
    free(copy);
    return s;
}
