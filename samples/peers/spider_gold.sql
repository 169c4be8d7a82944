SELECT name FROM emp WHERE bonus > 1	emp
SELECT count(*) FROM emp	emp
SELECT name, dept FROM emp ORDER BY salary DESC	emp
SELECT T2.title, count(*) FROM emp AS T1 JOIN dept AS T2 ON T1.dept = T2.code GROUP BY T2.title	emp
SELECT name FROM emp WHERE salary > (SELECT avg(salary) FROM emp)	emp
SELECT title FROM dept WHERE code NOT IN (SELECT dept FROM emp) UNION SELECT name FROM emp WHERE bonus = 3	emp
