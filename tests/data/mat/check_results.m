% Loads the .mat results of tests/data/mat/oscillator.xml (matfile) and checks them against the
% CSV results of the same run (csvfile): one struct per logged signal, named as docs/cli.md
% says, with `time` (N x 1), `values` (N x width), `signal` and `name`. Plain MATLAB language,
% so that MATLAB runs it too: matfile = '...'; csvfile = '...'; run('check_results.m')
S = load(matfile);
C = dlmread(csvfile, ',', 1, 0);
n = size(C, 1);
names = {'x', 'v_y', 'both_y'};
signals = {'x.y', 'v.y', 'both.y'};
logged = {'x', 'v.y', 'both.y'};
columns = {2, 3, 4:5};

found = sort(fieldnames(S));
if ~isequal(found, sort(names(:)))
  error('variables in %s: %s, expected x v_y both_y', matfile, strjoin(found', ' '));
end
for i = 1:numel(names)
  s = S.(names{i});
  if ~isstruct(s), error('%s is not a struct', names{i}); end
  if ~strcmp(s.signal, signals{i}), error('%s.signal is ''%s''', names{i}, s.signal); end
  if ~strcmp(s.name, logged{i}), error('%s.name is ''%s''', names{i}, s.name); end
  if ~isequal(size(s.time), [n, 1]), error('%s.time is %s', names{i}, mat2str(size(s.time))); end
  want = [n, numel(columns{i})];
  if ~isequal(size(s.values), want)
    error('%s.values is %s, expected %s', names{i}, mat2str(size(s.values)), mat2str(want));
  end
  % The CSV holds each double in the shortest form that reads back to it; allow a last-bit
  % difference in case a reader's decimal conversion is not correctly rounded.
  tol = @(a) 4 * eps(max(abs(a(:)), 1));
  if any(abs(s.time - C(:, 1)) > tol(C(:, 1))), error('%s.time differs from the CSV', names{i}); end
  ref = C(:, columns{i});
  if any(abs(s.values(:) - ref(:)) > tol(ref)), error('%s.values differs from the CSV', names{i}); end
end
% Exact values the run starts from: x(0) = 1, v(0) = 0.
if S.x.time(1) ~= 0 || S.x.values(1) ~= 1 || S.v_y.values(1) ~= 0
  error('first row: t = %g, x = %g, v = %g', S.x.time(1), S.x.values(1), S.v_y.values(1));
end
fprintf('octave: %s holds %d structs of %d rows, equal to the CSV\n', matfile, numel(names), n);
