SELECT name FROM emp WHERE bonus >= 2
SELECT count(id) FROM emp
SELECT name, dept FROM emp ORDER BY salary
SELECT T2.title, count(*) FROM emp AS T1 JOIN dept AS T2 ON T1.dept = T2.code GROUP BY T2.title
SELECT name FROM emp WHERE salary > 1200
SELECT title FROM dept WHERE code = 'OPS'
