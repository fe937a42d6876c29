// isulats native addon: the few syscalls Node.js 20 lacks (flock, mknod,
// l*xattr, mount, umount2, execve, and SO_PEERCRED on a unix socket). Each binding is a thin, synchronous wrapper that
// throws an Error carrying `code` (e.g. "EPERM") and `errno`, like Node's fs.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MAX_ARGS 6
#define CHECK(call)                                                   \
  do {                                                                \
    if ((call) != napi_ok) {                                          \
      napi_throw_error(env, NULL, "isulats native: bad argument");    \
      return NULL;                                                    \
    }                                                                 \
  } while (0)

static const char *errno_code(int err) {
  switch (err) {
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case EACCES: return "EACCES";
    case EEXIST: return "EEXIST";
    case EBUSY: return "EBUSY";
    case EINVAL: return "EINVAL";
    case ENOTDIR: return "ENOTDIR";
    case EISDIR: return "EISDIR";
    case ENOSPC: return "ENOSPC";
    case EROFS: return "EROFS";
    case ENODATA: return "ENODATA";
    case ENOTSUP: return "ENOTSUP";
    case ERANGE: return "ERANGE";
    case EWOULDBLOCK: return "EAGAIN";
    case EBADF: return "EBADF";
    case EINTR: return "EINTR";
    case ENAMETOOLONG: return "ENAMETOOLONG";
    case ENODEV: return "ENODEV";
    case ENOTBLK: return "ENOTBLK";
    case ELOOP: return "ELOOP";
    default: return "EUNKNOWN";
  }
}

// Throws `<syscall> <path>: <strerror>` with code/errno properties; returns NULL for the caller.
static napi_value throw_errno(napi_env env, const char *syscall, const char *path, int err) {
  char msg[4200];
  snprintf(msg, sizeof msg, "%s %s: %s", syscall, path ? path : "", strerror(err));
  napi_value message, code, error, errnum;
  napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &message);
  napi_create_string_utf8(env, errno_code(err), NAPI_AUTO_LENGTH, &code);
  napi_create_error(env, code, message, &error);
  napi_create_int32(env, -err, &errnum);
  napi_set_named_property(env, error, "errno", errnum);
  napi_set_named_property(env, error, "code", code);
  napi_value sc;
  napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &sc);
  napi_set_named_property(env, error, "syscall", sc);
  if (path) {
    napi_value p;
    napi_create_string_utf8(env, path, NAPI_AUTO_LENGTH, &p);
    napi_set_named_property(env, error, "path", p);
  }
  napi_throw(env, error);
  return NULL;
}

// Copies a JS string argument into a malloc'd C string (caller frees); NULL for null/undefined.
static char *get_string(napi_env env, napi_value value, int *ok) {
  napi_valuetype type;
  *ok = 0;
  if (napi_typeof(env, value, &type) != napi_ok) return NULL;
  if (type == napi_null || type == napi_undefined) {
    *ok = 1;
    return NULL;
  }
  if (type != napi_string) return NULL;
  size_t len;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &len) != napi_ok) return NULL;
  char *buf = malloc(len + 1);
  if (!buf) return NULL;
  napi_get_value_string_utf8(env, value, buf, len + 1, &len);
  *ok = 1;
  return buf;
}

static int get_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
  size_t argc = MAX_ARGS;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return 0;
  return argc >= want;
}

static napi_value make_bool(napi_env env, int v) {
  napi_value out;
  napi_get_boolean(env, v, &out);
  return out;
}

// flock(fd, exclusive, nonblocking) -> true when taken, false when busy (nonblocking only).
static napi_value js_flock(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 3, argv)) return throw_errno(env, "flock", NULL, EINVAL);
  int32_t fd;
  bool exclusive, nonblocking;
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  CHECK(napi_get_value_bool(env, argv[1], &exclusive));
  CHECK(napi_get_value_bool(env, argv[2], &nonblocking));
  int op = (exclusive ? LOCK_EX : LOCK_SH) | (nonblocking ? LOCK_NB : 0);
  int rc;
  do rc = flock(fd, op); while (rc < 0 && errno == EINTR);
  if (rc < 0) {
    if (nonblocking && errno == EWOULDBLOCK) return make_bool(env, 0);
    return throw_errno(env, "flock", NULL, errno);
  }
  return make_bool(env, 1);
}

// funlock(fd): releases a lock early (closing the fd releases it too).
static napi_value js_funlock(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 1, argv)) return throw_errno(env, "flock", NULL, EINVAL);
  int32_t fd;
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  if (flock(fd, LOCK_UN) < 0) return throw_errno(env, "flock", NULL, errno);
  return NULL;
}

// mknod(path, mode, major, minor): mode includes the file type bits (S_IFCHR, S_IFBLK, S_IFIFO).
static napi_value js_mknod(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 4, argv)) return throw_errno(env, "mknod", NULL, EINVAL);
  int ok;
  char *path = get_string(env, argv[0], &ok);
  if (!path) return throw_errno(env, "mknod", NULL, EINVAL);
  uint32_t mode, major, minor;
  if (napi_get_value_uint32(env, argv[1], &mode) != napi_ok || napi_get_value_uint32(env, argv[2], &major) != napi_ok ||
      napi_get_value_uint32(env, argv[3], &minor) != napi_ok) {
    free(path);
    return throw_errno(env, "mknod", NULL, EINVAL);
  }
  napi_value result = NULL;
  if (mknod(path, (mode_t)mode, makedev(major, minor)) < 0) result = throw_errno(env, "mknod", path, errno);
  free(path);
  return result;
}

// lsetxattr(path, name, value: Buffer): never follows a final symlink.
static napi_value js_lsetxattr(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 3, argv)) return throw_errno(env, "lsetxattr", NULL, EINVAL);
  int ok1, ok2;
  char *path = get_string(env, argv[0], &ok1);
  char *name = get_string(env, argv[1], &ok2);
  void *data = NULL;
  size_t len = 0;
  napi_value result = NULL;
  if (!path || !name || napi_get_buffer_info(env, argv[2], &data, &len) != napi_ok) {
    result = throw_errno(env, "lsetxattr", path, EINVAL);
  } else if (lsetxattr(path, name, data, len, 0) < 0) {
    result = throw_errno(env, "lsetxattr", path, errno);
  }
  free(path);
  free(name);
  return result;
}

// lgetxattr(path, name) -> Buffer, or null when the attribute is absent.
static napi_value js_lgetxattr(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 2, argv)) return throw_errno(env, "lgetxattr", NULL, EINVAL);
  int ok1, ok2;
  char *path = get_string(env, argv[0], &ok1);
  char *name = get_string(env, argv[1], &ok2);
  napi_value result = NULL;
  if (!path || !name) {
    result = throw_errno(env, "lgetxattr", path, EINVAL);
    goto out;
  }
  for (int attempt = 0; attempt < 4; attempt++) {
    ssize_t size = lgetxattr(path, name, NULL, 0);
    if (size < 0) {
      if (errno == ENODATA) napi_get_null(env, &result);
      else result = throw_errno(env, "lgetxattr", path, errno);
      goto out;
    }
    char *buf = malloc(size ? size : 1);
    ssize_t got = lgetxattr(path, name, buf, size);
    if (got >= 0) {
      napi_create_buffer_copy(env, got, buf, NULL, &result);
      free(buf);
      goto out;
    }
    int err = errno;
    free(buf);
    if (err != ERANGE) {
      result = throw_errno(env, "lgetxattr", path, err);
      goto out;
    }
  }
  result = throw_errno(env, "lgetxattr", path, ERANGE);
out:
  free(path);
  free(name);
  return result;
}

// llistxattr(path) -> string[] of attribute names.
static napi_value js_llistxattr(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 1, argv)) return throw_errno(env, "llistxattr", NULL, EINVAL);
  int ok;
  char *path = get_string(env, argv[0], &ok);
  napi_value result = NULL;
  if (!path) return throw_errno(env, "llistxattr", NULL, EINVAL);
  for (int attempt = 0; attempt < 4; attempt++) {
    ssize_t size = llistxattr(path, NULL, 0);
    if (size < 0) {
      result = throw_errno(env, "llistxattr", path, errno);
      goto out;
    }
    char *buf = malloc(size ? size : 1);
    ssize_t got = llistxattr(path, buf, size);
    if (got >= 0) {
      napi_create_array(env, &result);
      uint32_t index = 0;
      for (ssize_t off = 0; off < got;) {
        size_t len = strnlen(buf + off, got - off);
        napi_value name;
        napi_create_string_utf8(env, buf + off, len, &name);
        napi_set_element(env, result, index++, name);
        off += len + 1;
      }
      free(buf);
      goto out;
    }
    int err = errno;
    free(buf);
    if (err != ERANGE) {
      result = throw_errno(env, "llistxattr", path, err);
      goto out;
    }
  }
  result = throw_errno(env, "llistxattr", path, ERANGE);
out:
  free(path);
  return result;
}

// mount(source, target, fstype, flags, data): source/fstype/data may be null.
static napi_value js_mount(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 5, argv)) return throw_errno(env, "mount", NULL, EINVAL);
  int ok1, ok2, ok3, ok5;
  char *source = get_string(env, argv[0], &ok1);
  char *target = get_string(env, argv[1], &ok2);
  char *fstype = get_string(env, argv[2], &ok3);
  char *data = get_string(env, argv[4], &ok5);
  double flags = 0;
  napi_value result = NULL;
  if (!ok1 || !target || !ok3 || !ok5 || napi_get_value_double(env, argv[3], &flags) != napi_ok) {
    result = throw_errno(env, "mount", target, EINVAL);
  } else if (mount(source, target, fstype, (unsigned long)flags, data) < 0) {
    result = throw_errno(env, "mount", target, errno);
  }
  free(source);
  free(target);
  free(fstype);
  free(data);
  return result;
}

// umount2(target, flags): flags such as MNT_DETACH (2).
static napi_value js_umount2(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 2, argv)) return throw_errno(env, "umount2", NULL, EINVAL);
  int ok;
  char *target = get_string(env, argv[0], &ok);
  int32_t flags;
  napi_value result = NULL;
  if (!target || napi_get_value_int32(env, argv[1], &flags) != napi_ok) {
    result = throw_errno(env, "umount2", target, EINVAL);
  } else if (umount2(target, flags) < 0) {
    result = throw_errno(env, "umount2", target, errno);
  }
  free(target);
  return result;
}

// peercred(fd) -> { pid, uid, gid } of the process at the other end of a connected unix socket.
static napi_value js_peercred(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 1, argv)) return throw_errno(env, "getsockopt", NULL, EINVAL);
  int32_t fd;
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  struct ucred cred;
  socklen_t len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) return throw_errno(env, "getsockopt", "SO_PEERCRED", errno);
  napi_value out, pid, uid, gid;
  napi_create_object(env, &out);
  napi_create_int32(env, cred.pid, &pid);
  napi_create_uint32(env, cred.uid, &uid);
  napi_create_uint32(env, cred.gid, &gid);
  napi_set_named_property(env, out, "pid", pid);
  napi_set_named_property(env, out, "uid", uid);
  napi_set_named_property(env, out, "gid", gid);
  return out;
}

// Frees a NULL-terminated array of strings made by get_string_array.
static void free_string_array(char **list) {
  if (!list) return;
  for (char **p = list; *p; p++) free(*p);
  free(list);
}

// Copies a JS array of strings into a NULL-terminated array of malloc'd C strings; NULL on error.
static char **get_string_array(napi_env env, napi_value value) {
  uint32_t len;
  if (napi_get_array_length(env, value, &len) != napi_ok) return NULL;
  char **list = calloc(len + 1, sizeof *list);
  if (!list) return NULL;
  for (uint32_t i = 0; i < len; i++) {
    napi_value item;
    int ok;
    if (napi_get_element(env, value, i, &item) != napi_ok || !(list[i] = get_string(env, item, &ok))) {
      free_string_array(list);
      return NULL;
    }
  }
  return list;
}

// execve(path, argv, envp): replaces the process image (same PID). Returns only on failure, by throwing.
// The daemon uses it once at start-up to run itself again under its Node.js and glibc settings.
static napi_value js_execve(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 3, argv)) return throw_errno(env, "execve", NULL, EINVAL);
  int ok;
  char *path = get_string(env, argv[0], &ok);
  char **args = get_string_array(env, argv[1]);
  char **envp = get_string_array(env, argv[2]);
  int err = EINVAL;
  if (path && args && envp) {
    // Node.js marks stdin, stdout and stderr close-on-exec: the new image keeps them.
    for (int fd = 0; fd <= 2; fd++) {
      int flags = fcntl(fd, F_GETFD);
      if (flags >= 0 && (flags & FD_CLOEXEC)) fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
    }
    execve(path, args, envp);
    err = errno;
  }
  napi_value result = throw_errno(env, "execve", path, err);
  free(path);
  free_string_array(args);
  free_string_array(envp);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"flock", NULL, js_flock, NULL, NULL, NULL, napi_enumerable, NULL},
      {"funlock", NULL, js_funlock, NULL, NULL, NULL, napi_enumerable, NULL},
      {"mknod", NULL, js_mknod, NULL, NULL, NULL, napi_enumerable, NULL},
      {"lsetxattr", NULL, js_lsetxattr, NULL, NULL, NULL, napi_enumerable, NULL},
      {"lgetxattr", NULL, js_lgetxattr, NULL, NULL, NULL, napi_enumerable, NULL},
      {"llistxattr", NULL, js_llistxattr, NULL, NULL, NULL, napi_enumerable, NULL},
      {"mount", NULL, js_mount, NULL, NULL, NULL, napi_enumerable, NULL},
      {"umount2", NULL, js_umount2, NULL, NULL, NULL, napi_enumerable, NULL},
      {"peercred", NULL, js_peercred, NULL, NULL, NULL, napi_enumerable, NULL},
      {"execve", NULL, js_execve, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
