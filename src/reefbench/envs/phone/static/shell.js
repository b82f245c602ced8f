// The phone shell: launcher, drawer, app menu, and the app frame with back/home.
// The environment drives it through window.phone (show_all_drawer, press) and touches.
(() => {
  const $ = (id) => document.getElementById(id);
  const apps = window.PHONE_APPS;
  const phone = {
    current: null,   // package of the app in front (null: the launcher)
    state: window.PHONE_STATE,

    status() {
      this.follow();
      const drawer = !$('drawer').hidden;
      return { package: this.current || 'com.reef.launcher', drawer, menu: !$('app_menu').hidden };
    },
    // The app whose path is the longest prefix of a frame path ('/calendar/day' is
    // Calendar's), or null for a page no app starts from.
    packageOf(path) {
      let best = null;
      for (const [pkg, app] of Object.entries(apps)) {
        const base = app.path.split('?')[0].replace(/\/$/, '');
        const inside = path === base || path.startsWith(base + '/');
        if (inside && (best === null || base.length > apps[best].path.split('?')[0].length)) best = pkg;
      }
      return best;
    },
    // The services' apps link to each other (their app bar): navigating inside the frame
    // from Mail to Calendar brings Calendar to the front, as opening it would.
    follow() {
      const frame = this.frame();
      if (!frame || !this.current) return;
      let path = null;
      try { path = frame.contentWindow.location.pathname; } catch (e) { path = null; }
      const pkg = path ? this.packageOf(path) : null;
      if (pkg && pkg !== this.current) {
        this.current = pkg;
        frame.dataset.package = pkg;
      }
    },
    frame() { return $('app_frame'); },
    closeOverlays() { $('drawer').hidden = true; $('app_menu').hidden = true; $('home').hidden = false; },
    home() {
      const frame = this.frame();
      if (frame) frame.remove();
      this.current = null;
      this.closeOverlays();
      $('launcher').hidden = false;
    },
    openDrawer() { this.home(); $('home').hidden = true; $('drawer').hidden = false; $('drawer').scrollTop = 0; },
    open(pkg, path) {
      const app = apps[pkg];
      if (!app) return false;
      this.home();
      const frame = document.createElement('iframe');
      frame.id = 'app_frame';
      frame.name = 'app_frame';
      frame.dataset.package = pkg;
      frame.src = path || app.path;
      $('launcher').hidden = true;
      $('screen').appendChild(frame);
      this.current = pkg;
      return true;
    },
    back() {
      if (!$('app_menu').hidden) { $('app_menu').hidden = true; return 'menu'; }
      if (!$('drawer').hidden) { this.closeOverlays(); return 'drawer'; }
      const frame = this.frame();
      if (!frame) return 'home';
      let nav = null;
      try { nav = frame.contentWindow.navigation; } catch (e) { nav = null; }
      if (nav && nav.canGoBack) { nav.back(); return 'app'; }
      this.home();
      return 'closed';
    },
    menu(pkg) {
      $('app_menu_title').textContent = apps[pkg].name;
      $('app_menu').dataset.pkg = pkg;
      $('app_menu').hidden = false;
    },
    applyState(state) {
      this.state = state;
      document.body.classList.toggle('dark', !!state.settings.dark_mode);
      $('wifi_icon').hidden = !state.settings.wifi;
      $('bluetooth_icon').hidden = !state.settings.bluetooth;
    },
  };
  window.phone = phone;
  phone.applyState(phone.state);

  for (const icon of document.querySelectorAll('.app')) {
    icon.addEventListener('click', () => phone.open(icon.dataset.pkg));
    icon.addEventListener('contextmenu', (e) => { e.preventDefault(); phone.menu(icon.dataset.pkg); });
  }
  $('all_apps').addEventListener('click', () => phone.openDrawer());
  $('back').addEventListener('click', () => phone.back());
  $('home_button').addEventListener('click', () => phone.home());
  $('app_menu_open').addEventListener('click', () => phone.open($('app_menu').dataset.pkg));
  $('app_menu_info').addEventListener('click', () => phone.open(
    'com.reef.settings', '/__phone/app/appinfo?pkg=' + encodeURIComponent($('app_menu').dataset.pkg)));
  // Long presses elsewhere must not open the browser's own menu.
  document.addEventListener('contextmenu', (e) => e.preventDefault());
})();
