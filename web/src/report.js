// The twinblocks HTML report page (docs/report.md): charts of the logged signals (uPlot) and a
// 3D playback of the Solids' motion (three.js), from the JSON the report writer embeds in
// <script id="tb-data">. Bundled with uPlot and three.js into the page at build time
// (web/build.mjs); it loads nothing.
import uPlot from 'uplot';
import {
  AmbientLight,
  ArrowHelper,
  AxesHelper,
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  CapsuleGeometry,
  Color,
  CylinderGeometry,
  DirectionalLight,
  DoubleSide,
  GridHelper,
  Group,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  Quaternion,
  Scene,
  SphereGeometry,
  Vector3,
  WebGLRenderer,
} from 'three';

const data = JSON.parse(document.getElementById('tb-data').textContent);

// ---- Arrays: little-endian base64 (html_report.cc) ----

function bytesOf(base64) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
  return bytes.buffer;
}
const float64 = (s) => new Float64Array(bytesOf(s));
const float32 = (s) => new Float32Array(bytesOf(s));
const uint32 = (s) => new Uint32Array(bytesOf(s));

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2',
                 '#7f7f7f', '#bcbd22', '#17becf'];

function formatTime(t) {
  return `t = ${t.toFixed(Math.abs(t) < 10 ? 4 : 3)} s`;
}

// ---- Playback time, shared by the 3D view and the charts' cursor line ----

const playback = {
  time: null,  // s; null until a time is chosen (no cursor line yet)
  listeners: [],
  set(t) {
    this.time = t;
    for (const f of this.listeners) f(t);
  },
};

// ---- Charts ----

const charts = [];

function cursorLine() {
  return {
    hooks: {
      draw: [(u) => {
        if (playback.time === null) return;
        const x = Math.round(u.valToPos(playback.time, 'x', true));
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = '#e4572e';
        ctx.lineWidth = 2 * uPlot.pxRatio;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.restore();
      }],
    },
  };
}

function addChart(grid, run, time, signal) {
  const box = document.createElement('div');
  box.className = 'tb-chart';
  box.dataset.signal = signal.name;
  grid.appendChild(box);
  const series = [{label: 't (s)', value: (u, v) => (v == null ? '-' : v.toPrecision(6))}];
  const columns = [time];
  signal.columns.forEach((name, k) => {
    series.push({label: name, stroke: PALETTE[k % PALETTE.length], width: 1.5,
                 value: (u, v) => (v == null ? '-' : v.toPrecision(5))});
    // Gaps where a value is not finite: uPlot reads null as a gap, NaN would break its scales.
    columns.push(Array.from(float32(signal.data[k]), (v) => (Number.isFinite(v) ? v : null)));
  });
  const width = Math.max(300, box.clientWidth - 12);
  const chart = new uPlot({
    title: signal.name,
    width,
    height: 220,
    series,
    // A constant signal gets a unit band around its value instead of uPlot's 0 to 100.
    scales: {x: {time: false},
             y: {range: (u, min, max) => (min === max ? [min - 1, max + 1]
                                                     : uPlot.rangeNum(min, max, 0.1, true))}},
    axes: [{label: 'time (s)', labelSize: 18, size: 36}, {size: 60}],
    legend: {live: true},
    plugins: [cursorLine()],
  }, columns, box);
  chart.over.addEventListener('click', () => {
    if (chart.cursor.left == null || chart.cursor.left < 0) return;
    playback.set(chart.posToVal(chart.cursor.left, 'x'));
  });
  charts.push({chart, box});
}

function buildCharts() {
  const main = document.getElementById('tb-plots');
  for (const run of data.runs) {
    const heading = document.createElement('h2');
    heading.textContent = data.runs.length > 1 ? `${run.label}: logged signals` : 'Logged signals';
    main.appendChild(heading);
    if (run.signals.length === 0) {
      const note = document.createElement('p');
      note.className = 'tb-note';
      note.textContent = 'No signal is logged in this run.';
      main.appendChild(note);
      continue;
    }
    if (run.kept < run.rows) {
      const note = document.createElement('p');
      note.className = 'tb-note';
      note.textContent = `${run.rows} rows, drawn from ${run.kept} evenly spaced ones.`;
      main.appendChild(note);
    }
    const grid = document.createElement('div');
    grid.className = 'tb-grid';
    main.appendChild(grid);
    const time = Array.from(float64(run.time));
    for (const signal of run.signals) addChart(grid, run, time, signal);
  }
  playback.listeners.push(() => {
    for (const {chart} of charts) chart.redraw(false, false);
  });
  window.addEventListener('resize', () => {
    for (const {chart, box} of charts) {
      chart.setSize({width: Math.max(300, box.clientWidth - 12), height: 220});
    }
  });
}

// ---- 3D playback ----

/// A minimal orbit camera about a target, z up: drag turns, right- or shift-drag pans, the
/// wheel zooms.
class OrbitView {
  constructor(camera, element, onChange) {
    this.camera = camera;
    this.target = new Vector3();
    this.radius = 1;
    this.azimuth = -Math.PI / 3;
    this.elevation = 0.45;
    this.onChange = onChange;
    let last = null;
    let panning = false;
    element.addEventListener('contextmenu', (e) => e.preventDefault());
    element.addEventListener('pointerdown', (e) => {
      last = {x: e.clientX, y: e.clientY};
      panning = e.button === 2 || e.shiftKey;
      element.setPointerCapture(e.pointerId);
    });
    element.addEventListener('pointerup', (e) => {
      last = null;
      element.releasePointerCapture(e.pointerId);
    });
    element.addEventListener('pointermove', (e) => {
      if (last === null) return;
      const dx = e.clientX - last.x;
      const dy = e.clientY - last.y;
      last = {x: e.clientX, y: e.clientY};
      if (panning) {
        const right = new Vector3().setFromMatrixColumn(this.camera.matrix, 0);
        const up = new Vector3().setFromMatrixColumn(this.camera.matrix, 1);
        const scale = this.radius * 0.0018;
        this.target.addScaledVector(right, -dx * scale).addScaledVector(up, dy * scale);
      } else {
        this.azimuth -= dx * 0.006;
        this.elevation = Math.min(1.55, Math.max(-1.55, this.elevation + dy * 0.006));
      }
      this.update();
    });
    element.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.radius *= Math.exp(e.deltaY * 0.001);
      this.update();
    }, {passive: false});
  }

  update() {
    const c = Math.cos(this.elevation);
    this.camera.position.set(
        this.target.x + this.radius * c * Math.cos(this.azimuth),
        this.target.y + this.radius * c * Math.sin(this.azimuth),
        this.target.z + this.radius * Math.sin(this.elevation));
    this.camera.near = this.radius / 200;
    this.camera.far = this.radius * 50;
    this.camera.updateProjectionMatrix();
    this.camera.lookAt(this.target);
    this.camera.updateMatrixWorld();
    this.onChange();
  }
}

function shapeGeometry(solid, meshes, extent) {
  switch (solid.shape) {
    case 'sphere':
      return new SphereGeometry(solid.radius, 32, 16);
    case 'box':
      return new BoxGeometry(solid.size[0], solid.size[1], solid.size[2]);
    case 'cylinder':  // along z of the Solid's frame; three's are along y
      return new CylinderGeometry(solid.radius, solid.radius, solid.length, 32).rotateX(Math.PI / 2);
    case 'capsule':
      return new CapsuleGeometry(solid.radius, solid.length, 8, 24).rotateX(Math.PI / 2);
    case 'plane':  // the half-space z <= 0: its surface, as far as the scene reaches
      return new PlaneGeometry(extent * 4, extent * 4);
    case 'mesh': {
      const mesh = meshes[solid.mesh];
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(mesh.vertices, 3));
      g.setIndex(new BufferAttribute(mesh.triangles, 1));
      return g;
    }
    default:
      return null;  // shape 'none': nothing to draw (its body's frame shows where it is)
  }
}

/// The radius of a sphere about a Solid's frame origin that holds its shape (0 for 'none').
function shapeRadius(s, meshes) {
  switch (s.shape) {
    case 'sphere':
      return s.radius;
    case 'box':
      return Math.hypot(s.size[0], s.size[1], s.size[2]) / 2;
    case 'cylinder':
      return Math.hypot(s.radius, s.length / 2);
    case 'capsule':
      return s.radius + s.length / 2;
    case 'mesh': {
      const v = meshes[s.mesh].vertices;
      let r = 0;
      for (let i = 0; i < v.length; i += 3) r = Math.max(r, Math.hypot(v[i], v[i + 1], v[i + 2]));
      return r;
    }
    default:
      return 0;
  }
}

/// Axis-aligned bounds of the bodies and their Solids over the run (up to 200 frames looked
/// at), and of the fixed Solids; planes are infinite and left out.
function sceneBounds(scene, poses, meshes) {
  const nb = scene.bodies.length;
  const min = new Vector3(Infinity, Infinity, Infinity);
  const max = new Vector3(-Infinity, -Infinity, -Infinity);
  const p = new Vector3();
  const q = new Quaternion();
  const grow = (r) => {
    min.min(p.clone().subScalar(r));
    max.max(p.clone().addScalar(r));
  };
  const step = Math.max(1, Math.floor(scene.frames / 200));
  for (let f = 0; f < scene.frames; f += step) {
    for (let b = 0; b < nb; ++b) {
      const o = (f * nb + b) * 7;
      p.set(poses[o], poses[o + 1], poses[o + 2]);
      grow(0);
    }
    for (const s of scene.solids) {
      if (s.shape === 'plane' || s.body < 0) continue;
      const o = (f * nb + s.body) * 7;
      q.set(poses[o + 4], poses[o + 5], poses[o + 6], poses[o + 3]);
      p.set(s.position[0], s.position[1], s.position[2]).applyQuaternion(q);
      p.x += poses[o];
      p.y += poses[o + 1];
      p.z += poses[o + 2];
      grow(shapeRadius(s, meshes));
    }
  }
  for (const s of scene.solids) {
    if (s.shape === 'plane' || s.body >= 0) continue;
    p.set(s.position[0], s.position[1], s.position[2]);
    grow(shapeRadius(s, meshes));
  }
  if (!Number.isFinite(min.x)) {
    min.set(-0.5, -0.5, -0.5);
    max.set(0.5, 0.5, 0.5);
  }
  return {min, max};
}

/// A link drawn between two points: a unit cylinder along y, moved and stretched.
class Link {
  constructor(world, radius, material) {
    this.mesh = new Mesh(new CylinderGeometry(radius, radius, 1, 16), material);
    world.add(this.mesh);
  }

  set(a, b) {
    const d = new Vector3().subVectors(b, a);
    const length = d.length();
    this.mesh.visible = length > 1e-9;
    if (!this.mesh.visible) return;
    this.mesh.position.addVectors(a, b).multiplyScalar(0.5);
    this.mesh.quaternion.setFromUnitVectors(new Vector3(0, 1, 0), d.divideScalar(length));
    this.mesh.scale.set(1, length, 1);
  }
}

function buildViewer(run) {
  const scene = run.scene;
  const section = document.getElementById('tb-viewer');
  section.hidden = false;
  const box = document.getElementById('tb-canvas-box');
  const nb = scene.bodies.length;
  const nc = scene.contacts.length;
  const frameTime = float64(scene.time);
  const poses = float32(scene.poses);
  const contactData = float32(scene.contact_data);
  const meshes = scene.meshes.map((m) => ({vertices: float32(m.vertices),
                                           triangles: uint32(m.triangles)}));
  const bounds = sceneBounds(scene, poses, meshes);
  const center = bounds.min.clone().add(bounds.max).multiplyScalar(0.5);
  const extent = Math.max(0.05, bounds.max.clone().sub(bounds.min).length());

  let renderer;
  try {
    renderer = new WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
  } catch (e) {
    box.textContent = 'This browser cannot draw WebGL, so the 3D playback is not shown.';
    console.warn('twinblocks report: no WebGL:', e);
    return;
  }
  renderer.setPixelRatio(window.devicePixelRatio);
  renderer.domElement.id = 'tb-canvas';
  box.appendChild(renderer.domElement);
  const world = new Scene();
  world.background = new Color(0xeef1f5);
  const camera = new PerspectiveCamera(40, 1, 0.001, 100);
  camera.up.set(0, 0, 1);
  world.add(new AmbientLight(0xffffff, 1.2));
  const sun = new DirectionalLight(0xffffff, 2.2);
  sun.position.set(1, -1.5, 2.5);
  world.add(sun);
  const fill = new DirectionalLight(0xffffff, 0.8);
  fill.position.set(-1.5, 1, 0.5);
  world.add(fill);
  const grid = new GridHelper(extent * 1.5, 20, 0x9aa3ad, 0xc9ced5);
  grid.rotateX(Math.PI / 2);  // the world's xy plane
  world.add(grid);

  // One group per body, posed every frame; its Solids are fixed children.
  const groups = scene.bodies.map(() => new Group());
  for (const g of groups) world.add(g);
  const bodyHasSolid = new Array(nb).fill(false);
  for (const s of scene.solids) {
    const geometry = shapeGeometry(s, meshes, extent);
    if (geometry === null) continue;
    const material = new MeshStandardMaterial({
      color: new Color(s.color[0], s.color[1], s.color[2]), roughness: 0.55, metalness: 0.1,
      flatShading: s.shape === 'mesh' || s.shape === 'box',
      side: s.shape === 'plane' ? DoubleSide : undefined,
      transparent: s.shape === 'plane', opacity: s.shape === 'plane' ? 0.45 : 1});
    const mesh = new Mesh(geometry, material);
    mesh.name = s.name;
    mesh.position.set(s.position[0], s.position[1], s.position[2]);
    mesh.quaternion.set(s.quaternion[1], s.quaternion[2], s.quaternion[3], s.quaternion[0]);
    if (s.body < 0) {
      world.add(mesh);
    } else {
      groups[s.body].add(mesh);
      bodyHasSolid[s.body] = true;
    }
  }

  // Bodies without a shape to draw (Solids of shape 'none', as DH arms often have) are drawn
  // as links: from the parent's origin to the joint, from the joint to the body's origin, and
  // to each of its Solids' frames, with a ball at the body's origin.
  const linkMaterial = new MeshStandardMaterial({color: 0x5b7db1, roughness: 0.5, metalness: 0.2});
  const jointMaterial = new MeshStandardMaterial({color: 0xf0a830, roughness: 0.5});
  const linkRadius = extent * 0.012;
  const links = [];
  scene.bodies.forEach((body, b) => {
    if (bodyHasSolid[b]) return;
    links.push({body: b, toJoint: new Link(world, linkRadius, linkMaterial),
                toOrigin: new Link(world, linkRadius, linkMaterial)});
    const ball = new Mesh(new SphereGeometry(linkRadius * 1.8, 20, 12), jointMaterial);
    groups[b].add(ball);
    for (const s of scene.solids) {
      if (s.body !== b) continue;
      const to = new Vector3(s.position[0], s.position[1], s.position[2]);
      const link = new Link(groups[b], linkRadius, linkMaterial);
      link.set(new Vector3(), to);
      const mass = new Mesh(new SphereGeometry(linkRadius * 1.4, 16, 8), linkMaterial);
      mass.position.copy(to);
      groups[b].add(mass);
    }
  });
  const linkPoints = {parent: new Vector3(), joint: new Vector3(), origin: new Vector3()};
  function placeLinks() {
    for (const {body, toJoint, toOrigin} of links) {
      const spec = scene.bodies[body];
      const {parent, joint, origin} = linkPoints;
      joint.set(spec.joint[0], spec.joint[1], spec.joint[2]);
      if (spec.parent >= 0) {
        const g = groups[spec.parent];
        parent.copy(g.position);
        joint.applyQuaternion(g.quaternion).add(g.position);
      } else {
        parent.copy(joint);
      }
      origin.copy(groups[body].position);
      toJoint.set(parent, joint);
      toOrigin.set(joint, origin);
    }
  }

  // Frames on request: the world's, and every body's that carries a Solid.
  const axes = [new AxesHelper(extent * 0.12)];
  world.add(axes[0]);
  groups.forEach((g, b) => {
    if (!bodyHasSolid[b]) return;
    const a = new AxesHelper(extent * 0.06);
    g.add(a);
    axes.push(a);
  });

  // Contacts: the point and the normal force on F's shape, scaled to the run's largest.
  let maxFn = 0;
  for (let i = 6; i < contactData.length; i += 8) maxFn = Math.max(maxFn, contactData[i]);
  const contactMarks = scene.contacts.map(() => {
    const dot = new Mesh(new SphereGeometry(extent * 0.008, 16, 8),
                         new MeshStandardMaterial({color: 0xd62728}));
    const arrow = new ArrowHelper(new Vector3(0, 0, 1), new Vector3(), 1, 0xd62728);
    world.add(dot);
    world.add(arrow);
    return {dot, arrow};
  });

  const frames = document.getElementById('tb-frames');
  const contacts = document.getElementById('tb-contacts');
  const slider = document.getElementById('tb-time');
  const label = document.getElementById('tb-time-label');
  slider.max = String(scene.frames - 1);

  let needsRender = true;
  const view = new OrbitView(camera, renderer.domElement, () => { needsRender = true; });
  function fitView() {
    view.target.copy(center);
    view.radius = (extent / 2) / Math.sin((camera.fov * Math.PI) / 360) * 0.9;
    view.azimuth = -Math.PI / 3;
    view.elevation = 0.45;
    view.update();
  }

  let frame = 0;
  const dir = new Vector3();
  function showFrame(f) {
    frame = f;
    for (let b = 0; b < nb; ++b) {
      const o = (f * nb + b) * 7;
      groups[b].position.set(poses[o], poses[o + 1], poses[o + 2]);
      groups[b].quaternion.set(poses[o + 4], poses[o + 5], poses[o + 6], poses[o + 3]);
    }
    placeLinks();
    for (let k = 0; k < nc; ++k) {
      const o = (f * nc + k) * 8;
      const fn = contactData[o + 6];
      const on = contacts.checked && fn > 0;
      const {dot, arrow} = contactMarks[k];
      dot.visible = on;
      arrow.visible = on && maxFn > 0;
      if (!on) continue;
      dot.position.set(contactData[o], contactData[o + 1], contactData[o + 2]);
      dir.set(contactData[o + 3], contactData[o + 4], contactData[o + 5]).normalize();
      const length = extent * (0.03 + 0.25 * fn / maxFn);
      arrow.position.copy(dot.position);
      arrow.setDirection(dir);
      arrow.setLength(length, length * 0.25, length * 0.12);
    }
    for (const a of axes) a.visible = frames.checked;
    slider.value = String(f);
    label.textContent = formatTime(frameTime[f]);
    needsRender = true;
  }

  // The last frame at or before t.
  function frameAt(t) {
    let lo = 0;
    let hi = scene.frames - 1;
    if (t >= frameTime[hi]) return hi;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (frameTime[mid] <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  playback.listeners.push((t) => showFrame(frameAt(t)));
  slider.addEventListener('input', () => playback.set(frameTime[Number(slider.value)]));
  frames.addEventListener('change', () => showFrame(frame));
  contacts.addEventListener('change', () => showFrame(frame));
  document.getElementById('tb-reset-view').addEventListener('click', fitView);

  const play = document.getElementById('tb-play');
  const speed = document.getElementById('tb-speed');
  let playing = false;
  let clock = 0;  // s of the run, while playing
  let lastWall = null;
  function setPlaying(on) {
    playing = on;
    play.textContent = on ? 'Pause' : 'Play';
    lastWall = null;
    if (on) {
      clock = frameTime[frame];
      if (frame === scene.frames - 1) clock = frameTime[0];  // play again from the start
    }
  }
  play.addEventListener('click', () => setPlaying(!playing));
  document.addEventListener('keydown', (e) => {
    if (e.code === 'Space' && e.target === document.body) {
      e.preventDefault();
      setPlaying(!playing);
    }
  });

  function resize() {
    const w = box.clientWidth;
    const h = box.clientHeight;
    renderer.setSize(w, h);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
    needsRender = true;
  }
  window.addEventListener('resize', resize);

  function tick(wall) {
    if (playing) {
      if (lastWall !== null) {
        // At most 0.1 s of wall time per frame: a stall (a busy machine, a tab in the
        // background) pauses playback rather than skip ahead, as a video player does.
        clock += (Math.min(wall - lastWall, 100) / 1000) * Number(speed.value);
        if (clock >= frameTime[scene.frames - 1]) {
          clock = frameTime[scene.frames - 1];
          setPlaying(false);
        }
        playback.set(clock);
      }
      lastWall = wall;
    }
    if (needsRender) {
      renderer.render(world, camera);
      needsRender = false;
      status.renders += 1;
    }
    requestAnimationFrame(tick);
  }

  resize();
  fitView();
  playback.set(frameTime[0]);
  status.viewer = true;
  status.frame = () => frame;
  status.playing = () => playing;
  requestAnimationFrame(tick);
}

// ---- The page ----

/// What a test or a curious user can read: whether the page is built, and where playback is.
const status = {ready: false, viewer: false, charts: 0, renders: 0, frame: () => 0,
                time: () => playback.time};
window.twinblocksReport = status;

function main() {
  document.getElementById('tb-title').textContent = data.title;
  const parts = data.runs.map((r) => {
    const time = float64(r.time);
    const span = time.length ? `t = [${time[0]}, ${time[time.length - 1]}] s` : 'no rows';
    return `${r.label}: ${r.rows} rows, ${r.signals.length} signals, ${span}`;
  });
  document.getElementById('tb-subtitle').textContent = parts.join('; ');
  const withScene = data.runs.find((r) => r.scene !== null && r.scene.frames > 0);
  buildCharts();
  status.charts = charts.length;
  if (withScene) buildViewer(withScene);
  status.ready = true;
}

main();
