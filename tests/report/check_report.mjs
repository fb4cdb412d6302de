// Opens an HTML report in headless Chromium with the network cut off, and checks it as a user
// would see it: the page builds without console errors, every logged signal has a chart that
// draws something, the 3D canvas is not blank, the time slider moves the 3D scene and the
// charts' cursor, play advances the time, the frames checkbox shows the body frames. Saves a
// screenshot of the page.
//
// Usage: node check_report.mjs REPORT.html SCREENSHOT.png NODE_MODULES_DIR [--no-scene]
//   --no-scene: the report has no 3D playback (plots only), and must show none.
// Exits 77 (CTest's skip) when Chromium is missing: $CHROMIUM, else /usr/bin/chromium.
import {existsSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';

const argv = process.argv.slice(2);
const noScene = argv.includes('--no-scene');
const [reportPath, screenshotPath, nodeModules] = argv.filter((a) => !a.startsWith('--'));
if (!reportPath || !screenshotPath || !nodeModules) {
  console.error('usage: node check_report.mjs REPORT.html SCREENSHOT.png NODE_MODULES_DIR [--no-scene]');
  process.exit(2);
}
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  console.log(`SKIP: no Chromium at ${chromiumPath} (apt-get install chromium)`);
  process.exit(77);
}
const {chromium} = createRequire(join(resolve(nodeModules), 'noop.js'))('playwright-core');

const failures = [];
function check(ok, what) {
  if (ok) {
    console.log(`ok: ${what}`);
  } else {
    console.log(`FAILED: ${what}`);
    failures.push(what);
  }
}

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  // WebGL in software (SwiftShader): headless machines have no GPU. No background traffic.
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--ignore-gpu-blocklist', '--disable-background-networking', '--disable-component-update',
         '--disable-sync', '--no-first-run'],
});
try {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  // No network: every request but the report file itself is aborted and counted.
  const blocked = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => {
    if (!r.url().startsWith('file:')) blocked.push(r.url());
  });

  await page.goto(pathToFileURL(resolve(reportPath)).href);
  await page.waitForFunction(() => window.twinblocksReport && window.twinblocksReport.ready,
                             null, {timeout: 30000});

  // Charts: one per logged signal of every run, each drawing more than its axes.
  const expected = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('tb-data').textContent);
    return data.runs.reduce((n, r) => n + r.signals.length, 0);
  });
  const chartCount = await page.locator('.tb-chart .uplot').count();
  check(expected > 0 && chartCount === expected, `${chartCount} charts for ${expected} signals`);
  // Coloured (non-grey) pixels of a chart's canvas: its lines and the cursor line.
  const chartInk = (i) => page.evaluate((i) => {
    const canvas = document.querySelectorAll('.tb-chart canvas')[i];
    const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    let hash = 0;
    for (let k = 0; k < px.length; k += 4) {
      const [r, g, b, a] = [px[k], px[k + 1], px[k + 2], px[k + 3]];
      if (a > 0 && Math.max(r, g, b) - Math.min(r, g, b) > 40) ++ink;
      hash = (hash * 31 + r + 7 * g + 13 * b + 17 * a) | 0;
    }
    return {ink, hash};
  }, i);
  let drawn = 0;
  for (let i = 0; i < chartCount; ++i) {
    if ((await chartInk(i)).ink > 50) ++drawn;
  }
  check(drawn === chartCount, `${drawn} of ${chartCount} charts draw their lines`);

  const hasViewer = await page.evaluate(() => window.twinblocksReport.viewer);
  if (noScene) {
    check(!hasViewer && !(await page.locator('#tb-viewer').isVisible()), 'no 3D playback');
  } else {
    check(hasViewer, 'the 3D playback is built');
    await page.waitForFunction(() => window.twinblocksReport.renders > 0, null, {timeout: 30000});
    // Pixels of the 3D canvas that differ from its background, and a hash of them all.
    const sceneInk = () => page.evaluate(() => new Promise((done) => {
      requestAnimationFrame(() => requestAnimationFrame(() => {
        const gl = document.getElementById('tb-canvas');
        const copy = document.createElement('canvas');
        copy.width = gl.width;
        copy.height = gl.height;
        const ctx = copy.getContext('2d');
        ctx.drawImage(gl, 0, 0);
        const px = ctx.getImageData(0, 0, copy.width, copy.height).data;
        let ink = 0;
        let hash = 0;
        for (let k = 0; k < px.length; k += 4) {
          const d = Math.abs(px[k] - 0xee) + Math.abs(px[k + 1] - 0xf1) + Math.abs(px[k + 2] - 0xf5);
          if (d > 30) ++ink;
          hash = (hash * 31 + px[k] + 7 * px[k + 1] + 13 * px[k + 2]) | 0;
        }
        done({ink, hash, total: px.length / 4});
      }));
    }));
    const status = () => page.evaluate(() => ({frame: window.twinblocksReport.frame(),
                                               time: window.twinblocksReport.time()}));
    const first = await sceneInk();
    check(first.ink > 0.01 * first.total,
          `the 3D canvas is not blank (${first.ink} of ${first.total} pixels drawn)`);
    const chartBefore = await chartInk(0);

    // The time slider, driven from the keyboard as a user would: End, then Home.
    const slider = page.locator('#tb-time');
    const max = Number(await slider.getAttribute('max'));
    await slider.focus();
    await slider.press('End');
    const atEnd = await status();
    const last = await sceneInk();
    const chartAfter = await chartInk(0);
    check(max > 0 && atEnd.frame === max, `the slider moves playback to the last frame (${max})`);
    check(last.hash !== first.hash, 'moving the slider changes the 3D scene');
    check(chartAfter.hash !== chartBefore.hash, 'moving the slider moves the charts\' cursor');
    check((await page.locator('#tb-time-label').textContent()).startsWith('t = '),
          'the time label shows the time');
    await page.screenshot({path: screenshotPath.replace(/\.png$/, '_end.png'), fullPage: false});

    await slider.press('Home');
    check((await status()).frame === 0, 'Home goes back to the first frame');

    // Frames on request: the body frames' axes add pixels.
    const before = await sceneInk();
    await page.locator('#tb-frames').check();
    const withFrames = await sceneInk();
    check(withFrames.hash !== before.hash, 'the frames checkbox shows the body frames');

    // Play until the time moves, then pause. Slowly (0.01x: the G2 run's 0.1 s take 10 s of
    // wall time), so that playback cannot reach its end and stop by itself before the pause,
    // however loaded the machine.
    await page.locator('#tb-speed').selectOption('0.01');
    await page.locator('#tb-play').click();
    await page.waitForFunction(() => window.twinblocksReport.frame() > 0, null, {timeout: 10000})
        .catch(() => {});
    check((await status()).frame > 0, 'play advances the time');
    check(await page.evaluate(() => window.twinblocksReport.playing()), 'it is still playing');
    await page.locator('#tb-play').click();
    // A loaded machine may run the click's handler after click() returns.
    await page.waitForFunction(() => !window.twinblocksReport.playing(), null, {timeout: 10000})
        .catch(() => {});
    check(!(await page.evaluate(() => window.twinblocksReport.playing())), 'pause stops playback');
    const paused = (await status()).frame;
    await page.waitForTimeout(300);
    check((await status()).frame === paused, 'pause holds the time');
    await page.locator('#tb-frames').uncheck();

    // Contacts: at the frame of the largest total normal force, the points and force arrows
    // are drawn, and hidden with the contacts checkbox. Without contacts, the middle frame.
    const busiest = await page.evaluate(() => {
      const scene = JSON.parse(document.getElementById('tb-data').textContent)
                        .runs.find((r) => r.scene).scene;
      const text = atob(scene.contact_data);
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
      const c = new Float32Array(bytes.buffer);
      const nc = scene.contacts.length;
      let best = -1;
      let most = 0;
      for (let f = 0; f < scene.frames; ++f) {
        let total = 0;
        for (let k = 0; k < nc; ++k) total += c[(f * nc + k) * 8 + 6];
        if (total > most) [best, most] = [f, total];
      }
      return best;
    });
    await slider.fill(String(busiest >= 0 ? busiest : Math.floor(max / 2)));
    if (busiest >= 0) {
      check((await status()).frame === busiest, `the slider goes to frame ${busiest}`);
      const shown = await sceneInk();
      await page.locator('#tb-contacts').uncheck();
      const hidden = await sceneInk();
      check(shown.hash !== hidden.hash && shown.ink > hidden.ink,
            'contact points and forces are drawn, and hidden on request');
      await page.locator('#tb-contacts').check();
    }
  }

  await page.screenshot({path: screenshotPath, fullPage: false});
  check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  check(blocked.length === 0,
        `no request leaves the file${blocked.length ? ': ' + blocked.join(', ') : ''}`);
} finally {
  await browser.close();
}
console.log(failures.length === 0 ? 'check_report: passed' : `check_report: ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
