/* A GTK 3 module that gives exo's icon view (Thunar's icon and compact views) the
 * accessible items exo has for it but never installs. See exo_a11y.py for why.
 *
 * exo 4.18 registers its ExoIconViewAccessible factory only when the ATK registry's
 * factory for GtkContainer makes a GtkAccessible, as GTK 2 did; GTK 3 registers none, so
 * the view got a plain container accessible with no children. At start-up this module
 * registers such a factory for a moment, lets exo create its accessible type (on a
 * throwaway view), restores the registry, and makes that type the view class's accessible
 * type, the way GTK 3 widgets declare theirs.
 *
 * Built without GTK's headers (the host has none): the few GLib/ATK/GTK calls are looked
 * up with dlsym, so in a process without exo (or without GTK 3) the module does nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

typedef unsigned long GType;
typedef void *gpointer;

typedef struct {
  GType type;
  const char *type_name;
  unsigned class_size;
  unsigned instance_size;
} GTypeQuery;

typedef struct {
  unsigned short class_size;
  void (*base_init)(gpointer);
  void (*base_finalize)(gpointer);
  void (*class_init)(gpointer, gpointer);
  void (*class_finalize)(gpointer, gpointer);
  const void *class_data;
  unsigned short instance_size;
  unsigned short n_preallocs;
  void (*instance_init)(gpointer, gpointer);
  const void *value_table;
} GTypeInfo;

#define SYM(ret, name, args) static ret(*p_##name) args
SYM(GType, g_type_register_static, (GType, const char *, const GTypeInfo *, int));
SYM(void, g_type_query, (GType, GTypeQuery *));
SYM(GType, g_type_from_name, (const char *));
SYM(int, g_type_is_a, (GType, GType));
SYM(gpointer, g_type_class_ref, (GType));
SYM(gpointer, g_object_new, (GType, const char *, ...));
SYM(gpointer, g_object_ref_sink, (gpointer));
SYM(void, g_object_unref, (gpointer));
SYM(GType, atk_object_factory_get_type, (void));
SYM(GType, atk_object_factory_get_accessible_type, (gpointer));
SYM(GType, atk_no_op_object_factory_get_type, (void));
SYM(gpointer, atk_get_default_registry, (void));
SYM(gpointer, atk_registry_get_factory, (gpointer, GType));
SYM(void, atk_registry_set_factory_type, (gpointer, GType, GType));
SYM(void, atk_object_initialize, (gpointer, gpointer));
SYM(GType, gtk_container_get_type, (void));
SYM(GType, gtk_container_accessible_get_type, (void));
SYM(gpointer, gtk_widget_get_accessible, (gpointer));
SYM(void, gtk_widget_class_set_accessible_type, (gpointer, GType));
SYM(GType, exo_icon_view_get_type, (void));

static size_t object_class_size;

/* The stand-in factory for GtkContainer: what GTK 3 itself makes for a container. */
static gpointer create_accessible(gpointer widget) {
  gpointer accessible =
      p_g_object_new(p_gtk_container_accessible_get_type(), "widget", widget, NULL);
  p_atk_object_initialize(accessible, widget);
  return accessible;
}

static GType accessible_type(void) { return p_gtk_container_accessible_get_type(); }

static void factory_class_init(gpointer klass, gpointer data) {
  (void)data;
  /* AtkObjectFactoryClass: GObjectClass, then create_accessible, invalidate,
   * get_accessible_type. */
  void **methods = (void **)((char *)klass + object_class_size);
  methods[0] = (void *)create_accessible;
  methods[2] = (void *)accessible_type;
}

#define LOAD(name)                                        \
  if (!(p_##name = dlsym(RTLD_DEFAULT, #name))) return 0

static int load(void) {
  LOAD(exo_icon_view_get_type);
  LOAD(g_type_register_static);
  LOAD(g_type_query);
  LOAD(g_type_from_name);
  LOAD(g_type_is_a);
  LOAD(g_type_class_ref);
  LOAD(g_object_new);
  LOAD(g_object_ref_sink);
  LOAD(g_object_unref);
  LOAD(atk_object_factory_get_type);
  LOAD(atk_object_factory_get_accessible_type);
  LOAD(atk_no_op_object_factory_get_type);
  LOAD(atk_get_default_registry);
  LOAD(atk_registry_get_factory);
  LOAD(atk_registry_set_factory_type);
  LOAD(atk_object_initialize);
  LOAD(gtk_container_get_type);
  LOAD(gtk_container_accessible_get_type);
  LOAD(gtk_widget_get_accessible);
  LOAD(gtk_widget_class_set_accessible_type);
  return 1;
}

void gtk_module_init(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (!load()) return;
  GTypeQuery query;
  p_g_type_query(p_g_type_from_name("GObject"), &query);
  object_class_size = query.class_size;
  GType base = p_atk_object_factory_get_type();
  p_g_type_query(base, &query);
  if (query.class_size < object_class_size + 3 * sizeof(void *)) return;
  GTypeInfo info = {0};
  info.class_size = (unsigned short)query.class_size;
  info.class_init = factory_class_init;
  info.instance_size = (unsigned short)query.instance_size;
  GType factory = p_g_type_register_static(base, "ReefContainerAccessibleFactory", &info, 0);
  if (!factory) return;

  gpointer registry = p_atk_get_default_registry();
  GType container = p_gtk_container_get_type();
  GType view = p_exo_icon_view_get_type();
  p_atk_registry_set_factory_type(registry, container, factory);
  /* exo registers its factory the first time a view's accessible is asked for. */
  gpointer throwaway = p_g_object_ref_sink(p_g_object_new(view, NULL));
  p_gtk_widget_get_accessible(throwaway);
  p_g_object_unref(throwaway);
  /* Asked before the registry is restored: exo derives its type from this factory's. */
  GType items = p_atk_object_factory_get_accessible_type(p_atk_registry_get_factory(registry, view));
  p_atk_registry_set_factory_type(registry, container, p_atk_no_op_object_factory_get_type());
  if (!p_g_type_is_a(items, p_gtk_container_accessible_get_type())) return;
  p_gtk_widget_class_set_accessible_type(p_g_type_class_ref(view), items);
}
