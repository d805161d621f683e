/* dlpack_usm_repro: one case of `dlpack-usm check --producer LIB` or
 * `--consumer LIB` with no tool around it. The crash snippet of such a case
 * compiles this file and runs it with the case's own request:
 *
 *   dlpack_usm_repro consume|produce BRIDGE_LIBRARY PLUGIN_LIBRARY RUNTIME
 *                    REQUEST_JSON
 *
 * It asks libdlpack_usm (BRIDGE_LIBRARY, bridge.h) for the host table of
 * RUNTIME and for the very tensor or request the case used (REQUEST_JSON, as
 * dlpack_usm_bridge_consumer_offer or dlpack_usm_bridge_produce_request take
 * it), then calls the plugin's consume or produce once. No worker, no
 * containment, no watchdog: a crash happens here, where gdb or a sanitizer
 * sees it.
 *
 * Exit status: 0 the call returned (whatever it answered); 2 wrong
 * arguments, a library that does not load, or a plugin without the call;
 * 3 the bridge gave no host table, tensor or request.
 *
 * Build it as the snippet does, against the tool's include folder:
 *   cc -g plugin_repro.c -o dlpack_usm_repro -I<prefix>/include -ldl */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <dlpack_usm/dlpack_abi.h>
#include <dlpack_usm/plugin.h>

/* The bridge's functions (bridge.h), looked up in BRIDGE_LIBRARY rather
 * than linked: the snippet names the very library the tool ran. */
typedef int (*HostOf)(const char* runtime, const DlpackUsmHost** host,
                      char** answer);
typedef int (*OfferOf)(const char* request_json, void** tensor, char** answer);
typedef int (*RequestOf)(const char* request_json,
                         const DlpackUsmProduceRequest** request,
                         char** answer);

static int usage(void) {
  fprintf(stderr,
          "usage: dlpack_usm_repro consume|produce BRIDGE_LIBRARY "
          "PLUGIN_LIBRARY RUNTIME REQUEST_JSON\n");
  return 2;
}

/* The bridge refused the case (it gave no `what`): exit status 3. */
static int refused(const char* what, const char* answer) {
  fprintf(stderr, "no %s: %s\n", what, answer ? answer : "");
  return 3;
}

/* The plugin has no `call` (consume or produce): exit status 2. */
static int missing(const char* call) {
  fprintf(stderr, "no %s\n", call);
  return 2;
}

/* What the plugin is handed, said and flushed before the call, which may
 * crash. */
static void announce(const char* what, const char* answer) {
  printf("%s: %s\n", what, answer);
  fflush(stdout);
}

/* Offers consumer case `request_json` to the plugin's consume. */
static int consume(void* offer_symbol, const DlpackUsmHost* host,
                   const DlpackUsmPlugin* plugin, const char* request_json) {
  OfferOf offer = (OfferOf)offer_symbol;
  void* tensor = NULL;
  char* answer = NULL;
  if (offer(request_json, &tensor, &answer) != 0 || !tensor) {
    return refused("tensor", answer);
  }
  if (!plugin || !plugin->consume) return missing("consume");
  announce("offered", answer);
  /* The bridge's answer names the struct it offered. */
  int versioned = strstr(answer, "\"dltensor_versioned\"") != NULL;
  DlpackUsmConsumeResult result = {.struct_size = sizeof result};
  int status = plugin->consume(host, tensor, versioned, &result);
  printf("consume returned %d, accepted %d: %s\n", status, result.accepted,
         result.reason);
  return 0;
}

/* Runs the deleter of a tensor produce made for `request`: versioned for a
 * request of DLPack 1 or later, legacy before. */
static void delete_produced(const DlpackUsmProduceRequest* request,
                            void* tensor) {
  if (request->dlpack_major >= 1) {
    DLManagedTensorVersioned* made = tensor;
    if (made->deleter) made->deleter(made);
  } else {
    DLManagedTensor* made = tensor;
    if (made->deleter) made->deleter(made);
  }
}

/* Asks the plugin's produce for producer case `request_json`. */
static int produce(void* request_symbol, const DlpackUsmHost* host,
                   const DlpackUsmPlugin* plugin, const char* request_json) {
  RequestOf request_of = (RequestOf)request_symbol;
  const DlpackUsmProduceRequest* request = NULL;
  char* answer = NULL;
  if (request_of(request_json, &request, &answer) != 0) {
    return refused("request", answer);
  }
  if (!plugin || !plugin->produce) return missing("produce");
  announce("asked", answer);
  void* tensor = NULL;
  char message[256] = "";
  int status = plugin->produce(host, request, &tensor, message, sizeof message);
  printf("produce returned %d: %s\n", status, message);
  if (status == DLPACK_USM_OK && tensor) delete_produced(request, tensor);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 6) return usage();
  int consuming = strcmp(argv[1], "consume") == 0;
  if (!consuming && strcmp(argv[1], "produce") != 0) return usage();
  const char* runtime = argv[4];
  const char* request_json = argv[5];

  void* bridge = dlopen(argv[2], RTLD_NOW);
  void* library = dlopen(argv[3], RTLD_NOW);
  if (!bridge || !library) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  HostOf host_of = (HostOf)dlsym(bridge, "dlpack_usm_bridge_plugin_host");
  void* ask = dlsym(bridge, consuming ? "dlpack_usm_bridge_consumer_offer"
                                      : "dlpack_usm_bridge_produce_request");
  DlpackUsmPluginEntry entry =
      (DlpackUsmPluginEntry)dlsym(library, DLPACK_USM_PLUGIN_ENTRY);
  const DlpackUsmHost* host = NULL;
  char* answer = NULL;
  if (!host_of || !ask || !entry || host_of(runtime, &host, &answer) != 0) {
    fprintf(stderr, "no host table: %s\n", answer ? answer : dlerror());
    return 3;
  }
  const DlpackUsmPlugin* plugin = entry(host);
  return consuming ? consume(ask, host, plugin, request_json)
                   : produce(ask, host, plugin, request_json);
}
